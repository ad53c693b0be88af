"""Every notebook follows the lesson format (tools/lesson_stats.py): its sections in order, Going deeper
collapsed and last, exercises that run without Going deeper, Going deeper that runs without solutions."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lesson_stats  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


def lesson(*cells) -> nbformat.NotebookNode:
    """A small lesson: opening, one section, Summary, then the given cells."""
    opening = new_markdown_cell("# T\n\nWhy?\n\nYou will:\n- see\n\nAbout 45 minutes.")
    return new_notebook(cells=[opening, new_code_cell("x = 1"), new_markdown_cell("## Summary"), *cells])


def deeper(source: str = "## Going deeper") -> nbformat.NotebookNode:
    cell = new_markdown_cell(source)
    cell.metadata["jp-MarkdownHeadingCollapsed"] = True
    return cell


def solution(source: str) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    cell.metadata["tags"] = ["solution"]
    return cell


def problems_of(nb: nbformat.NotebookNode, tmp_path: Path) -> list[str]:
    path = tmp_path / "lesson.ipynb"
    nbformat.write(nb, path)
    return lesson_stats.lesson_problems(path)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_follows_the_lesson_format(path: Path) -> None:
    assert lesson_stats.lesson_problems(path) == []


def test_a_well_formed_lesson_has_no_problem(tmp_path: Path) -> None:
    nb = lesson(new_markdown_cell("## Exercises"), solution("y = x + 1"), deeper(), new_code_cell("z = x * 2"))
    assert problems_of(nb, tmp_path) == []


def test_going_deeper_before_the_exercises_is_reported(tmp_path: Path) -> None:
    nb = lesson(deeper(), new_code_cell("z = x * 2"), new_markdown_cell("## Exercises"), solution("y = x"))
    assert any("must end Summary, Exercises, Going deeper" in p for p in problems_of(nb, tmp_path))


def test_an_exercise_that_needs_going_deeper_is_reported(tmp_path: Path) -> None:
    nb = lesson(new_markdown_cell("## Exercises"), solution("print(deep)"), deeper(), new_code_cell("deep = 3"))
    assert problems_of(nb, tmp_path) == ["the exercises use what only Going deeper defines: deep"]


def test_going_deeper_that_needs_a_solution_is_reported(tmp_path: Path) -> None:
    nb = lesson(new_markdown_cell("## Exercises"), solution("answer = 2"), deeper(), new_code_cell("print(answer)"))
    assert problems_of(nb, tmp_path) == [
        "Going deeper uses what only a solution defines (the student edition has none): answer"]


def test_an_uncollapsed_going_deeper_is_reported(tmp_path: Path) -> None:
    nb = lesson(new_markdown_cell("## Exercises"), new_markdown_cell("## Going deeper"))
    assert "the Going deeper heading is not collapsed (jp-MarkdownHeadingCollapsed)" in problems_of(nb, tmp_path)
