"""`make assignments`: nbgrader assignments from the stored notebooks, and their autograding.

The release versions must give no answer away; the instructor's worked solutions must score
full marks on the autograded tests and the untouched release zero (nbgrader 0.9.6 executes
them, in quick mode, for the two fastest notebooks).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import assignments  # noqa: E402


def hidden_tests(notebook: str) -> list[str]:
    """Every hidden test of a notebook."""
    return [test for tests in assignments.hidden_tests(notebook).values() for test in tests]

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
GRADED = ["01_imperative", "02_symbolic"]  # autograded in the tests: the fastest two


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> tuple[Path, dict]:
    """The course folder with every assignment generated, and the points of each."""
    out = tmp_path_factory.mktemp("course")
    return out, assignments.generate(NOTEBOOKS, out)


def solution_lines(path: Path) -> list[str]:
    """Distinctive lines of the notebook's worked solutions (30 characters or more, not elsewhere)."""
    nb = nbformat.read(path, as_version=4)
    others = "\n".join(c.source for c in nb.cells if "solution" not in c.metadata.get("tags", []))
    lines = [line.strip() for c in nb.cells if "solution" in c.metadata.get("tags", [])
             for line in c.source.splitlines()]
    return [line for line in dict.fromkeys(lines) if len(line) >= 30 and line not in others]


def test_every_notebook_becomes_an_assignment(course) -> None:
    out, points = course
    assert list(points) == [p.stem for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        autograded, written = points[path.stem]
        assert autograded == len(hidden_tests(path.stem)) and written >= 3
        assert (out / "release" / path.stem / path.name).is_file()
    assert sum(a for a, _ in points.values()) >= 20, "too few autograded tests"
    # nbgrader's own commands and formgrader, started in the course folder, use the same settings.
    assert f"c.CourseDirectory.root = {str(out)!r}" in (out / "nbgrader_config.py").read_text()


def test_release_gives_no_answer_away(course) -> None:
    out, _ = course
    for path in NOTEBOOKS:
        release = nbformat.read(out / "release" / path.stem / path.name, as_version=4)
        text = json.dumps(release.dict())
        leaked = [line for line in solution_lines(path) if json.dumps(line)[1:-1] in text]
        assert not leaked, f"the release of {path.stem} gives away: {leaked[:3]}"
        assert "BEGIN HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
        for test in hidden_tests(path.stem):
            assert json.dumps(test.strip().splitlines()[-1])[1:-1] not in text, f"{path.stem}: a hidden test shows"
        answers = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert answers and all("YOUR CODE HERE" in c.source or "YOUR ANSWER HERE" in c.source for c in answers)
        tests = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("test_")]
        assert len(tests) == len(hidden_tests(path.stem)) and all(c.metadata["nbgrader"]["locked"] for c in tests)


@pytest.mark.parametrize("assignment", GRADED)
def test_solutions_score_full_marks_and_the_blank_release_zero(course, assignment: str) -> None:
    out, points = course
    name = f"{assignment}.ipynb"
    for student, version in (("instructor", "source"), ("blank", "release")):
        folder = out / "submitted" / student / assignment
        folder.mkdir(parents=True)
        shutil.copy(out / version / assignment / name, folder / name)
    score, total = assignments.autograde(assignment, "instructor", out)
    assert total == points[assignment][0] > 0
    assert score == total, f"the worked solutions of {assignment} score {score} of {total}"
    score, total = assignments.autograde(assignment, "blank", out)
    assert score == 0, f"the untouched release of {assignment} scores {score} of {total}"


def test_hidden_tests_follow_their_exercise(course) -> None:
    out, _ = course
    for path in NOTEBOOKS:
        cells = nbformat.read(out / "source" / path.stem / path.name, as_version=4).cells
        ids = [c.metadata.get("nbgrader", {}).get("grade_id", "") for c in cells]
        for i, grade_id in enumerate(ids):
            if grade_id.startswith("test_exercise_"):
                exercise = grade_id.split("_")[2]
                answer = next(g for g in reversed(ids[:i]) if g.startswith("answer_"))
                assert answer.startswith(f"answer_exercise_{exercise}_"), f"{path.stem}: {grade_id} after {answer}"
                assert "BEGIN HIDDEN TESTS" in cells[i].source


def test_a_test_for_an_exercise_without_code_is_refused(monkeypatch) -> None:
    monkeypatch.setitem(assignments.TESTS, "01_imperative", {9: "assert True"})
    with pytest.raises(ValueError, match=r"exercises \[9\]"):
        assignments.source_notebook(ROOT / "notebooks" / "01_imperative.ipynb")
