"""Build nbgrader assignments from the stored notebooks (one source of truth), and grade them.

    python tools/assignments.py [--out build/assignments] [NOTEBOOK ...]        # make assignments
    python tools/assignments.py --grade STUDENT [--out ...] [NOTEBOOK ...]      # autograde submissions
    python tools/assignments.py --release NN_name | --collect NN_name [--exchange DIR]  # on the hub

Each notebook NN_name becomes the nbgrader assignment NN_name, in the course folder `--out`
(nbgrader 0.9.6's layout: source/, release/, submitted/, autograded/, gradebook.db, and
nbgrader_config.py with the same settings for nbgrader's own commands and its formgrader):

- source/NN_name/NN_name.ipynb is the stored notebook, outputs cleared, with nbgrader's cell
  metadata: every code cell tagged `solution` becomes an answer cell (its code between
  `### BEGIN SOLUTION` and `### END SOLUTION`), every markdown cell tagged `solution` a
  manually graded written answer (1 point), and the tests of tools/assignment_tests.py (keyed
  by exercise) become autograded cells (1 point each) right after the exercise's last worked
  solution code cell, hidden between
  `### BEGIN HIDDEN TESTS` and `### END HIDDEN TESTS`;
- release/NN_name/NN_name.ipynb is what students get, from `nbgrader generate_assignment`:
  answers replaced by stubs, hidden tests removed, test cells locked.

Collected notebooks go to submitted/STUDENT/NN_name/; `--grade STUDENT` runs
`nbgrader autograde` on them (quick mode, HYBRID_QUICK=1) and prints each notebook's
autograded score. Manual grading and feedback then go through `nbgrader formgrader` (the
JupyterLab extension) or `nbgrader generate_feedback`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from assignment_tests import TESTS  # noqa: E402

SOLUTION_TAG = "solution"
SCHEMA = 3  # nbgrader's cell metadata schema version (nbgrader 0.9)


def _metadata(grade_id: str, *, solution: bool, grade: bool, locked: bool, points: int = 0) -> dict:
    """nbgrader's metadata of one cell."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


EXERCISE = re.compile(r"\s*(?:#+\s*|\*\*)(?:Exercise|Solution)\s+(\d+)")  # "### Exercise 2", "**Solution 2.**"


def exercise_of_cells(nb: nbformat.NotebookNode) -> list[int | None]:
    """The exercise each cell belongs to (from the last "Exercise N"/"Solution N" heading above it)."""
    numbers, current = [], None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = EXERCISE.match(cell.source)
            if match:
                current = int(match.group(1))
            elif cell.source.lstrip().startswith("## "):      # a new section: no exercise yet
                current = None
        numbers.append(current)
    return numbers


def hidden_tests(notebook: str) -> dict[int, list[str]]:
    """TESTS[notebook] (tools/assignment_tests.py) with each exercise's tests as a list."""
    return {exercise: [tests] if isinstance(tests, str) else list(tests)
            for exercise, tests in TESTS.get(notebook, {}).items()}


def source_notebook(path: Path) -> tuple[nbformat.NotebookNode, int, int]:
    """Return the nbgrader source version of a stored notebook, its autograded and its manual points."""
    nb = nbformat.read(path, as_version=4)
    tests = hidden_tests(path.stem)
    exercises = exercise_of_cells(nb)
    solution_code = [i for i, cell in enumerate(nb.cells)
                     if cell.cell_type == "code" and SOLUTION_TAG in cell.metadata.get("tags", [])]
    # Each exercise's tests go right after its last worked-solution code cell.
    last_code = {exercises[i]: i for i in solution_code}
    unknown = sorted(set(tests) - {e for e in last_code if e is not None})
    if unknown:
        raise ValueError(f"assignment_tests.TESTS[{path.stem!r}] has tests for exercises {unknown}, "
                         f"but the notebook has worked solution code only for {sorted(e for e in last_code if e)}")
    cells, written, autograded = [], 0, 0
    per_exercise: dict[tuple[str, int | None], int] = {}

    def grade_id(kind: str, exercise: int | None) -> str:
        """A readable, unique name in the gradebook: answer_exercise_2_1, written_exercise_2_1, ..."""
        per_exercise[kind, exercise] = per_exercise.get((kind, exercise), 0) + 1
        return f"{kind}_exercise_{exercise or 0}_{per_exercise[kind, exercise]}"

    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("jupyter", None)           # the stored notebook folds its solutions
        cell.metadata.pop("execution", None)
        if SOLUTION_TAG not in cell.metadata.get("tags", []):
            cells.append(cell)
            continue
        exercise = exercises[index]
        if cell.cell_type == "code":
            cell.source = f"### BEGIN SOLUTION\n{cell.source}\n### END SOLUTION"
            cell.metadata["nbgrader"] = _metadata(grade_id("answer", exercise), solution=True, grade=False, locked=False)
            cells.append(cell)
            if exercise in tests and last_code[exercise] == index:
                for k, test_source in enumerate(tests[exercise], 1):
                    autograded += 1
                    test = nbformat.v4.new_code_cell(
                        f"# Checks your answer to exercise {exercise} (hidden tests, 1 point).\n"
                        f"### BEGIN HIDDEN TESTS\n{test_source.strip()}\n### END HIDDEN TESTS")
                    test.metadata["nbgrader"] = _metadata(f"test_exercise_{exercise}_{k}", solution=False,
                                                          grade=True, locked=True, points=1)
                    cells.append(test)
        else:
            written += 1
            cell.metadata["nbgrader"] = _metadata(grade_id("written", exercise), solution=True, grade=True,
                                                  locked=False, points=1)
            cells.append(cell)
    nb.cells = cells
    return nb, autograded, written


COURSE_ID = "hybridization"  # nbgrader's exchange (JupyterHub) files assignments under it


# Where `make hub` releases and collects assignments (jupyter/hub/nbgrader_config.py says the same).
EXCHANGE = os.environ.get("HYBRID_NBGRADER_EXCHANGE") or "/srv/nbgrader/exchange"


def settings(out: Path, exchange: str | Path | None = None) -> dict[str, object]:
    """nbgrader's settings for the course folder `out` (and the exchange folder), as {"Class.trait": value}."""
    return {**({"Exchange.root": str(exchange)} if exchange else {}),
        "CourseDirectory.root": str(out),
        "CourseDirectory.course_id": COURSE_ID,
        "CourseDirectory.db_url": f"sqlite:///{out / 'gradebook.db'}",
        "Execute.timeout": 1800,                       # seconds per cell: 05 and 07 train and time
        "ClearSolutions.code_stub": {"python": "# YOUR CODE HERE\nraise NotImplementedError()"},
        "ClearSolutions.text_stub": "YOUR ANSWER HERE",
    }


def config(out: Path, exchange: str | Path | None = None):
    """nbgrader's configuration for the course folder `out`."""
    from traitlets.config import Config
    c = Config()
    for name, value in settings(out, exchange).items():
        section, trait = name.split(".")
        c[section][trait] = value
    return c


def write_config(out: Path) -> Path:
    """Write out/nbgrader_config.py, so that `nbgrader ...` and the formgrader started there agree with the tool."""
    lines = ["# Written by tools/assignments.py (make assignments); edits are overwritten.", "c = get_config()  # noqa: F821"]
    lines += [f"c.{name} = {value!r}" for name, value in settings(out).items()]
    path = out / "nbgrader_config.py"
    path.write_text("\n".join(lines) + "\n")
    return path


def api(out: Path, exchange: str | Path | None = None):
    """An nbgrader API object for the course folder `out` (and the exchange folder)."""
    from nbgrader.apps import NbGraderAPI
    # nbgrader creates its gradebook by running `alembic`, looked up on the PATH: this environment's.
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    return NbGraderAPI(config=config(out, exchange))


def generate(notebooks: list[Path], out: Path) -> dict[str, tuple[int, int]]:
    """Write source and release versions of each notebook; return {assignment: (autograded, manual) points}."""
    out.mkdir(parents=True, exist_ok=True)
    write_config(out)
    grader = api(out)
    points = {}
    for path in notebooks:
        nb, autograded, written = source_notebook(path)
        folder = out / "source" / path.stem
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / path.name)
        result = grader.generate_assignment(path.stem, force=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {path.stem} failed:\n{result.get('log', '')}\n{result.get('error', '')}")
        points[path.stem] = (autograded, written)
        print(f"{path.stem}: {autograded} autograded tests, {written} written answers graded by hand")
    return points


def autograde(assignment: str, student: str, out: Path) -> tuple[float, float]:
    """Autograde one student's submission (quick mode); return (autograded score, autograded maximum)."""
    from nbgrader.api import Gradebook
    saved = {name: os.environ.get(name) for name in ("HYBRID_QUICK", "TORCHINDUCTOR_COMPILE_THREADS")}
    os.environ.update(HYBRID_QUICK="1", TORCHINDUCTOR_COMPILE_THREADS="1")  # the kernel inherits them
    try:
        result = api(out).autograde(assignment, student, force=True)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    if not result["success"]:
        raise RuntimeError(f"nbgrader autograde {assignment} {student} failed:\n{result.get('log', '')}\n{result.get('error', '')}")
    with Gradebook(config(out).CourseDirectory.db_url) as gradebook:
        notebook = gradebook.find_submission_notebook(assignment, assignment, student)
        grades = [g for g in notebook.grades if g.cell.name.startswith("test_")]
        return sum(g.score for g in grades), sum(g.max_score for g in grades)


def exchange_step(step: str, assignment: str, out: Path, exchange: str | Path) -> None:
    """Release an assignment to the exchange, or collect what students submitted into out/submitted/."""
    grader = api(out, exchange)
    result = grader.release_assignment(assignment) if step == "release" else grader.collect(assignment)
    if not result or not result["success"]:
        log = (result or {}).get("log", "") + (result or {}).get("error", "")
        raise RuntimeError(f"nbgrader {step} {assignment} failed (exchange {exchange}):\n{log}")


def main(argv: list[str] | None = None) -> None:
    """Generate the assignments, or autograde a student's submissions."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "assignments")
    parser.add_argument("--grade", metavar="STUDENT", help="autograde submitted/STUDENT/<assignment>/")
    parser.add_argument("--release", metavar="ASSIGNMENT", help="release ASSIGNMENT to the hub's exchange")
    parser.add_argument("--collect", metavar="ASSIGNMENT", help="collect submissions of ASSIGNMENT into submitted/")
    parser.add_argument("--exchange", default=EXCHANGE, help=f"nbgrader's exchange folder (default {EXCHANGE})")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    out = args.out.resolve()
    if args.release or args.collect:
        step, assignment = ("release", args.release) if args.release else ("collect", args.collect)
        exchange_step(step, assignment, out, args.exchange)
        print(f"{step}: {assignment} ({'to' if args.release else 'from'} {args.exchange})")
    elif args.grade:
        for path in notebooks:
            if (out / "submitted" / args.grade / path.stem).is_dir():
                score, total = autograde(path.stem, args.grade, out)
                print(f"{args.grade}, {path.stem}: {score:g} of {total:g} autograded points")
    else:
        generate(notebooks, out)
        print(f"release versions for students in {out / 'release'}")


if __name__ == "__main__":
    main()
