"""tools/decks.py: cell tags pick what a slide shows; the rest goes to the speaker notes."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import decks  # noqa: E402


def md(source: str, *tags: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(source, metadata={"tags": list(tags)} if tags else {})


def code(source: str, *tags: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(source, metadata={"tags": list(tags)} if tags else {})


@pytest.fixture
def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [md("# The title\n\nWhat it shows, in one line. More detail.\n\nA second paragraph."),
                code("import helpers"),
                md("## A section with a point\n\nLong prose for the notes."),
                md("Prose the slide leaves out."),
                code("setup = 1"),
                code("show(point)", "deck"),
                md("## A section with nothing tagged\n\nOnly prose."),
                code("more = 2"),
                md("## Exercises"),
                md("Prose that leads up to the exercise."),
                md("1. An exercise.", "deck-slide"),
                md("Worked solution.", "solution", "deck-slide"),
                code("answer = 42", "solution", "deck")]
    return nb


def types(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    return [(c.metadata["slideshow"]["slide_type"], c.source.splitlines()[0]) for c in nb.cells]


def test_the_deck_shows_headings_and_tagged_cells_and_notes_the_rest(notebook) -> None:
    assert types(decks.deck(notebook)) == [
        ("slide", "# The title"),
        ("notes", "What it shows, in one line. More detail."),
        ("skip", "import helpers"),
        ("slide", "## A section with a point"),
        ("skip", "setup = 1"),
        ("notes", "Long prose for the notes."),
        ("notes", "Prose the slide leaves out."),
        ("-", "show(point)"),
        ("skip", "more = 2"),
        ("notes", "## A section with nothing tagged"),
        ("slide", "## Exercises"),
        ("slide", "1. An exercise."),
        ("notes", "Prose that leads up to the exercise."),
        ("slide", "Worked solution."),
        ("-", "answer = 42"),
    ]
    assert decks.deck(notebook).cells[0].source == "# The title\n\nWhat it shows, in one line."


def test_slide_counts_of_the_instructor_and_student_decks(notebook) -> None:
    assert decks.slide_count(notebook) == 5
    assert decks.slide_count(notebook, student=True) == 4


def test_the_notebook_itself_is_unchanged(notebook) -> None:
    before = copy.deepcopy(notebook)
    decks.deck(notebook)
    assert notebook == before


def test_a_notebook_without_a_title_is_refused() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [md("## Only a section")]
    with pytest.raises(ValueError, match="Title"):
        decks.deck(nb)


def test_every_notebook_has_a_deck_with_a_point_per_section() -> None:
    for path in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        title, aim, _ = decks.one_line_aim(nb)
        assert title and aim.endswith((".", ":", "?")), f"{path.name}: no one-line aim after its title"
        shown = [c for c in nb.cells if decks.shown(c)]
        assert shown, f"{path.name}: no cell is tagged for the deck"
        assert decks.slide_count(nb) >= 4, f"{path.name}: a deck of {decks.slide_count(nb)} slides"


def test_a_figure_slide_shows_the_figure_and_notes_its_code() -> None:
    nb = nbformat.v4.new_notebook()
    chart = code("plot(x)", "deck")
    chart.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})]
    nb.cells = [md("# T\n\nAim."), md("## A chart"), chart]
    shown_chart = decks.deck(nb).cells[-1]
    assert decks.FIGURE in decks.tags(shown_chart) and shown_chart.metadata["slideshow"]["slide_type"] == "-"
    assert types(decks.deck(nb))[-2] == ("notes", "```python")
