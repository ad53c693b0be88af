"""Lecture decks from the notebooks: cell tags say what a slide shows (tools/build_editions.py slides).

The notebook stays the one source. A slide shows a heading and the cells tagged for it; all other
prose goes into the speaker notes (reveal.js's notes view, key `s`), and all other code is left out:

- `deck`: show this cell (markdown or code, with its outputs) on the current slide;
- `deck-slide`: show it and start a new slide with it (a second point in a section, an exercise,
  a worked solution: solutions get slides in the instructor deck only, as the student edition
  leaves every `solution` cell out).

A `##` or `###` heading starts a slide when a tagged cell follows it before the next heading;
otherwise the heading goes into the notes of the slide before. The prose of a heading cell below
its first line goes into the notes. The deck opens at a title slide: the notebook's `# Title`
and the first sentence after it (its one-line aim). Tags do not change the notebook as students
run it: JupyterLab and nbval ignore them.
"""

from __future__ import annotations

import copy
import re

import nbformat

DECK = "deck"
DECK_SLIDE = "deck-slide"
# Added in the deck only, to a shown code cell whose output is a figure: the slide shows the figure
# alone, as large as the slide allows, and the code goes into the speaker notes.
FIGURE = "deck-figure"
HEADING = re.compile(r"^(#{2,3})\s+\S")


def tags(cell: nbformat.NotebookNode) -> list[str]:
    """Return the tags of a cell."""
    return list(cell.get("metadata", {}).get("tags", []))


def shown(cell: nbformat.NotebookNode) -> bool:
    """Return True when a cell is tagged to be shown on a slide."""
    return bool({DECK, DECK_SLIDE} & set(tags(cell)))


def heading_level(cell: nbformat.NotebookNode) -> int:
    """Return 2 or 3 for a markdown cell that starts with a ## or ### heading, else 0."""
    if cell.cell_type != "markdown":
        return 0
    match = HEADING.match(cell.source.lstrip())
    return len(match.group(1)) if match else 0


def one_line_aim(nb: nbformat.NotebookNode) -> tuple[str, str, int]:
    """Return the notebook's title, the first sentence after it, and the title cell's index."""
    for i, cell in enumerate(nb.cells):
        text = cell.source.lstrip()
        if cell.cell_type == "markdown" and text.startswith("# "):
            title, _, rest = text[2:].partition("\n")
            paragraph = rest.strip().split("\n\n")[0].replace("\n", " ")
            sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", paragraph, maxsplit=1)[0]
            return title.strip(), sentence.strip(), i
    raise ValueError("nb must have a markdown cell starting with '# Title'")


def _cell(kind: str, source: str, slide_type: str, like: nbformat.NotebookNode | None = None):
    """Return a new cell of `kind` with `source` and a slide type (keeping `like`'s tags)."""
    make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    cell = make(source)
    if like is not None:
        cell.metadata = copy.deepcopy(like.metadata)
    cell.metadata["slideshow"] = {"slide_type": slide_type}
    return cell


def _section_shows(cells: list[nbformat.NotebookNode], start: int) -> bool:
    """Return True when a tagged cell follows the heading at `start` before the next heading."""
    for cell in cells[start + 1:]:
        if heading_level(cell):
            return False
        if shown(cell):
            return True
    return False


def has_figure(cell: nbformat.NotebookNode) -> bool:
    """Return True when a code cell's outputs hold an image."""
    return any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))


def deck(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Return a copy of `nb` whose slideshow metadata makes the lecture deck (see the module)."""
    title, aim, title_index = one_line_aim(nb)
    out = copy.deepcopy(nb)
    cells = [_cell("markdown", f"# {title}\n\n{aim}", "slide")]
    notes: list[nbformat.NotebookNode] = []  # prose waiting for the slide it belongs to

    def visible(cell: nbformat.NotebookNode, heading: bool = False) -> None:
        """Add a shown cell: the prose that leads up to a `deck-slide` cell goes with its slide;
        prose before a heading stays with the slide before (it ends the previous section)."""
        if cell.metadata["slideshow"]["slide_type"] == "slide" and not heading:
            cells.append(cell)
            cells.extend(notes)
        else:
            cells.extend(notes)
            cells.append(cell)
        notes.clear()

    rest = nb.cells[title_index].source.lstrip()[2:].partition("\n")[2].strip()
    if rest:
        cells.append(_cell("markdown", rest, "notes", nb.cells[title_index]))
    for i, cell in enumerate(nb.cells):
        if i == title_index:
            continue
        new = copy.deepcopy(cell)
        new.setdefault("metadata", {})
        level = heading_level(cell)
        if level and (shown(cell) or _section_shows(nb.cells, i)):
            heading, _, prose = cell.source.lstrip().partition("\n")
            if shown(cell):  # a tagged heading cell shows its prose on the slide too
                visible(_cell("markdown", cell.source, "slide", cell), heading=True)
                continue
            visible(_cell("markdown", heading, "slide", cell), heading=True)
            if prose.strip():
                notes.append(_cell("markdown", prose.strip(), "notes", cell))
            continue
        if shown(cell):
            new.metadata["slideshow"] = {"slide_type": "slide" if DECK_SLIDE in tags(cell) else "-"}
            if cell.cell_type == "code" and has_figure(cell):
                new.metadata["tags"] = tags(cell) + [FIGURE]
                # the code goes to the notes, with the cell's tags (a solution stays a solution)
                notes.append(_cell("markdown", f"```python\n{cell.source}\n```", "notes", cell))
            visible(new)
        elif cell.cell_type == "markdown":
            new.metadata["slideshow"] = {"slide_type": "notes"}
            notes.append(new)
        else:
            new.metadata["slideshow"] = {"slide_type": "skip"}
            cells.append(new)
    cells.extend(notes)
    out.cells = cells
    return out


def slide_count(nb: nbformat.NotebookNode, student: bool = False) -> int:
    """Return the number of slides of the deck of `nb` (the student deck has no solution slides)."""
    cells = [c for c in deck(nb).cells if not (student and "solution" in tags(c))]
    visible = [c.metadata["slideshow"]["slide_type"] for c in cells
               if c.metadata["slideshow"]["slide_type"] not in ("skip", "notes")]
    return 1 + sum(t in ("slide", "subslide") for t in visible[1:]) if visible else 0


__all__ = ["DECK", "DECK_SLIDE", "FIGURE", "deck", "has_figure", "heading_level", "one_line_aim", "shown", "slide_count", "tags"]
