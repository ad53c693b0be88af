"""Build nbgrader assignments from the stored notebooks (one source of truth), and grade them.

    python tools/assignments.py [--out build/assignments] [NOTEBOOK ...]        # make assignments
    python tools/assignments.py --grade STUDENT [--out ...] [NOTEBOOK ...]      # autograde submissions

Each notebook NN_name becomes the nbgrader assignment NN_name, in the course folder `--out`
(nbgrader 0.9.6's layout: source/, release/, submitted/, autograded/, gradebook.db):

- source/NN_name/NN_name.ipynb is the stored notebook, outputs cleared, with nbgrader's cell
  metadata: every code cell tagged `solution` becomes an answer cell (its code between
  `### BEGIN SOLUTION` and `### END SOLUTION`), every markdown cell tagged `solution` a
  manually graded written answer (1 point), and the tests of tools/assignment_tests.py become
  autograded cells (1 point each) right after the answer they check, hidden between
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


def source_notebook(path: Path) -> tuple[nbformat.NotebookNode, int, int]:
    """Return the nbgrader source version of a stored notebook, its autograded and its manual points."""
    nb = nbformat.read(path, as_version=4)
    tests = TESTS.get(path.stem, {})
    cells, code_answers, written, autograded = [], 0, 0, 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.metadata.pop("jupyter", None)           # the stored notebook folds its solutions
        cell.metadata.pop("execution", None)
        if SOLUTION_TAG not in cell.metadata.get("tags", []):
            cells.append(cell)
            continue
        if cell.cell_type == "code":
            code_answers += 1
            cell.source = f"### BEGIN SOLUTION\n{cell.source}\n### END SOLUTION"
            cell.metadata["nbgrader"] = _metadata(f"answer_{code_answers}", solution=True, grade=False, locked=False)
            cells.append(cell)
            if code_answers in tests:
                autograded += 1
                test = nbformat.v4.new_code_cell(
                    f"# Checks your answer above (hidden tests, 1 point).\n"
                    f"### BEGIN HIDDEN TESTS\n{tests[code_answers].strip()}\n### END HIDDEN TESTS")
                test.metadata["nbgrader"] = _metadata(f"test_{code_answers}", solution=False, grade=True,
                                                      locked=True, points=1)
                cells.append(test)
        else:
            written += 1
            cell.metadata["nbgrader"] = _metadata(f"written_{written}", solution=True, grade=True,
                                                  locked=False, points=1)
            cells.append(cell)
    unknown = sorted(set(tests) - set(range(1, code_answers + 1)))
    if unknown:
        raise ValueError(f"assignment_tests.TESTS[{path.stem!r}] names solution cells {unknown}, "
                         f"but the notebook has {code_answers}")
    nb.cells = cells
    return nb, autograded, written


def config(out: Path):
    """nbgrader's configuration for the course folder `out`."""
    from traitlets.config import Config
    c = Config()
    c.CourseDirectory.root = str(out)
    c.CourseDirectory.db_url = f"sqlite:///{out / 'gradebook.db'}"
    c.Execute.timeout = 1800
    c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
    c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
    return c


def api(out: Path):
    """An nbgrader API object for the course folder `out`."""
    from nbgrader.apps import NbGraderAPI
    # nbgrader creates its gradebook by running `alembic`, looked up on the PATH: this environment's.
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    return NbGraderAPI(config=config(out))


def generate(notebooks: list[Path], out: Path) -> dict[str, tuple[int, int]]:
    """Write source and release versions of each notebook; return {assignment: (autograded, manual) points}."""
    out.mkdir(parents=True, exist_ok=True)
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


def main(argv: list[str] | None = None) -> None:
    """Generate the assignments, or autograde a student's submissions."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "assignments")
    parser.add_argument("--grade", metavar="STUDENT", help="autograde submitted/STUDENT/<assignment>/")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    out = args.out.resolve()
    if args.grade:
        for path in notebooks:
            if (out / "submitted" / args.grade / path.stem).is_dir():
                score, total = autograde(path.stem, args.grade, out)
                print(f"{args.grade}, {path.stem}: {score:g} of {total:g} autograded points")
    else:
        generate(notebooks, out)
        print(f"release versions for students in {out / 'release'}")


if __name__ == "__main__":
    main()
