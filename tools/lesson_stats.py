"""How long each lesson is: markdown words on the main path, in the exercises, in Going deeper.

    python tools/lesson_stats.py [notebooks/NN_name.ipynb ...]

The main path is every markdown cell before the `## Exercises` or `## Going deeper` heading that
is not a worked solution (tag `solution`); the target is about 2,500 words (CONTRIBUTING.md).
The exercises are the markdown under `## Exercises` that is not a solution, Going deeper the
markdown under `## Going deeper`. It also says where a lesson strays from the format
(`lesson_problems`): no opening, no Summary, the sections out of the format's order (Summary,
Exercises, then Going deeper last), a Going deeper that is not collapsed, an exercise that uses what
only Going deeper defines, Going deeper using what only a solution defines, words about how the
collection is tested or was built.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import nbformat

ROOT = Path(__file__).resolve().parent.parent
TARGET_WORDS = 2500
SECTIONS = ("main", "exercises", "going deeper", "solutions")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.M)
# Words about how the collection is tested or came to be; they do not belong in a lesson.
OFF_TOPIC = re.compile(
    r"compared by the tests|not compared|nbval|NBVAL|the tests compare|\bCI\b|continuous integration"
    r"|an earlier build|earlier build|\bcommit [0-9a-f]{7,}\b|\b[0-9a-f]{7,40}\b(?=[ )]*(?:commit|build))"
    r"|property inspector|nbval-ignore-output|stored output", re.I)


@dataclass
class Stats:
    """Markdown words per part of one notebook."""

    notebook: str
    main: int = 0
    exercises: int = 0
    going_deeper: int = 0
    solutions: int = 0


def words(text: str) -> int:
    """Words of a markdown text, with HTML tags and link targets left out."""
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return len(text.split())


def section_of(heading: str, current: str) -> str:
    """The part a level-2 heading opens (Exercises, Going deeper), else the current part."""
    title = heading.strip().lower()
    if title.startswith("exercises"):
        return "exercises"
    if title.startswith("going deeper"):
        return "going deeper"
    return "main" if current == "main" else current


def parts(nb: nbformat.NotebookNode) -> list[tuple[str, nbformat.NotebookNode]]:
    """Each cell with the part it belongs to: main, exercises, going deeper or solutions."""
    out, current = [], "main"
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for level, title in HEADING.findall(cell.source):
                if len(level) == 2:
                    current = section_of(title, current)
        part = "solutions" if "solution" in cell.metadata.get("tags", []) else current
        out.append((part, cell))
    return out


def stats(path: Path) -> Stats:
    """The word counts of one notebook."""
    nb = nbformat.read(path, as_version=4)
    result = Stats(path.name)
    for part, cell in parts(nb):
        if cell.cell_type != "markdown":
            continue
        attr = part.replace(" ", "_")
        setattr(result, attr, getattr(result, attr) + words(cell.source))
    return result


def names(sources: list[str]) -> tuple[set[str], set[str]]:
    """The names that code cells bind (assignments, defs, classes, imports) and the names they read."""
    bound, read = set(), set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (bound if isinstance(node.ctx, ast.Store) else read).add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound, read


def dependency_problems(nb: nbformat.NotebookNode) -> list[str]:
    """Exercises that need Going deeper's cells, and Going deeper that needs a solution's."""
    code: dict[str, list[str]] = {part: [] for part in SECTIONS}
    for part, cell in parts(nb):
        if cell.cell_type == "code":
            code[part].append(cell.source)
    main, _ = names(code["main"])
    exercises, exercises_read = names(code["exercises"] + code["solutions"])
    deeper, deeper_read = names(code["going deeper"])
    solutions, _ = names(code["solutions"])
    problems = []
    needed = sorted((exercises_read & deeper) - main - exercises)
    if needed:
        problems.append(f"the exercises use what only Going deeper defines: {', '.join(needed)}")
    needed = sorted((deeper_read & solutions) - main - deeper - names(code["exercises"])[0])
    if needed:
        problems.append(f"Going deeper uses what only a solution defines (the student edition has none): {', '.join(needed)}")
    return problems


def lesson_problems(path: Path) -> list[str]:
    """Where a notebook strays from shared/lesson-format.md, one line each (none when it follows it)."""
    nb = nbformat.read(path, as_version=4)
    problems = []
    markdown = [c for c in nb.cells if c.cell_type == "markdown"]
    opening = markdown[0].source if markdown else ""
    if not re.search(r"^# ", opening, re.M) or "You will" not in opening or not re.search(r"\d+ minutes", opening):
        problems.append("the opening cell needs the title, 'You will' and the time in minutes")
    headings = [(len(level), title, cell) for cell in markdown for level, title in HEADING.findall(cell.source)]
    titles = [title.lower() for level, title, _ in headings if level == 2]
    for needed in ("summary", "exercises", "going deeper"):
        if not any(t.startswith(needed) for t in titles):
            problems.append(f"no '## {needed.capitalize()}' section")
    order = [t.split()[0] for t in titles if t.startswith(("summary", "exercises", "going deeper"))]
    if order and order != ["summary", "exercises", "going"] or titles and not titles[-1].startswith("going deeper"):
        problems.append("the sections must end Summary, Exercises, Going deeper (last)")
    problems += dependency_problems(nb)
    for level, title, cell in headings:
        if level == 2 and title.lower().startswith("going deeper") \
                and not cell.metadata.get("jp-MarkdownHeadingCollapsed"):
            problems.append("the Going deeper heading is not collapsed (jp-MarkdownHeadingCollapsed)")
    for index, cell in enumerate(nb.cells):
        text = cell.source if cell.cell_type == "markdown" else "\n".join(
            line for line in cell.source.splitlines() if line.lstrip().startswith("#"))
        match = OFF_TOPIC.search(text)
        if match:
            problems.append(f"cell {index}: about testing or build history: {match.group(0)!r}")
    return problems


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    print(f"{'notebook':32} {'main path':>9} {'exercises':>9} {'going deeper':>12} {'solutions':>9}")
    for path in paths:
        s = stats(path)
        flag = "  (over the target)" if s.main > TARGET_WORDS * 1.2 else ""
        print(f"{s.notebook:32} {s.main:9d} {s.exercises:9d} {s.going_deeper:12d} {s.solutions:9d}{flag}")
    print(f"Target: about {TARGET_WORDS} main-path words a notebook (CONTRIBUTING.md).")
    found = [(path.name, p) for path in paths for p in lesson_problems(path)]
    for name, problem in found:
        print(f"{name}: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
