"""The student edition (`make handout`) has no worked solution; the HTML edition is navigable and accessible.

The notebooks of the student edition are built without a browser. The HTML pages are opened
from file:// in headless Chromium with every request to another host aborted, and checked with
axe-core (axe-playwright-python 0.1.8): no violation of any impact on any page.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from jupyterlab_driver import MISSING_CHROMIUM, ROOT, block_remote, chromium, chromium_path

sys.path.insert(0, str(ROOT / "tools"))
import build_editions  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
SOLUTION = build_editions.SOLUTION_TAG


def solution_lines(path: Path) -> list[str]:
    """Distinctive lines of a notebook's solution cells (long enough not to occur by chance elsewhere)."""
    nb = nbformat.read(path, as_version=4)
    others = "\n".join(c.source for c in nb.cells if SOLUTION not in c.metadata.get("tags", []))
    lines = [line.strip() for c in nb.cells if SOLUTION in c.metadata.get("tags", [])
             for line in c.source.splitlines()]
    return [line for line in dict.fromkeys(lines) if len(line) >= 30 and line not in others]


def test_every_notebook_has_worked_solutions() -> None:
    for path in NOTEBOOKS:
        assert len(solution_lines(path)) >= 3, f"{path.name}: too few solution lines to check the handout"


def test_student_notebooks_have_no_solution(tmp_path: Path) -> None:
    built = build_editions.build("notebooks", NOTEBOOKS, tmp_path, student=True)
    assert [p.name for p in built] == [p.name for p in NOTEBOOKS]
    for stored, student in zip(NOTEBOOKS, built):
        original = nbformat.read(stored, as_version=4)
        handed = nbformat.read(student, as_version=4)
        assert not [c for c in handed.cells if SOLUTION in c.metadata.get("tags", [])]
        solutions = sum(SOLUTION in c.metadata.get("tags", []) for c in original.cells)
        assert len(handed.cells) == len(original.cells) - solutions, f"{stored.name}: other cells went missing"
        text = json.dumps(handed.dict())
        leaked = [line for line in solution_lines(stored) if json.dumps(line)[1:-1] in text]
        assert not leaked, f"{student.name} gives away: {leaked[:3]}"
        assert "## Exercises" in text, f"{student.name}: the exercises themselves must stay"


def test_instructor_edition_keeps_the_solutions(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="instructor edition"):
        build_editions.build("notebooks", NOTEBOOKS, tmp_path)
    for path in NOTEBOOKS:  # the stored notebooks are the instructor edition
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if SOLUTION in c.metadata.get("tags", []) and c.cell_type == "code"]
        assert code and all(c.outputs for c in code if c.source.strip()), f"{path.name}: solution outputs missing"


@pytest.fixture(scope="module")
def student_html(tmp_path_factory) -> Path:
    """The student HTML edition of every notebook, built as `make handout` does."""
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    if not build_editions.NODE_MODULES.is_dir():
        pytest.skip("web/node_modules is missing: install Node.js and npm (make handout runs npm ci --prefix web)")
    out = tmp_path_factory.mktemp("handout") / "html"
    build_editions.build("html", NOTEBOOKS, out, student=True)
    return out


@pytest.mark.browser
def test_student_html_has_no_solution(student_html: Path) -> None:
    for path in NOTEBOOKS:
        text = BeautifulSoup((student_html / f"{path.stem}.html").read_text(encoding="utf-8"),
                             features="html.parser").get_text()
        leaked = [line for line in solution_lines(path) if line in text]
        assert not leaked, f"{path.stem}.html gives away: {leaked[:3]}"


@pytest.mark.browser
def test_html_edition_navigates_and_passes_axe(student_html: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    pages = ["index.html"] + [f"{p.stem}.html" for p in NOTEBOOKS]
    flagged = {}
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        remote = block_remote(context)
        page = context.new_page()
        page.goto((student_html / "index.html").as_uri(), wait_until="load")
        titles = page.eval_on_selector_all("ol.notebooks > li > a", "as => as.map(a => a.getAttribute('href'))")
        assert titles == pages[1:]
        sections = page.eval_on_selector_all("ul.sections a", "as => as.map(a => a.getAttribute('href'))")
        assert len(sections) >= 3 * len(NOTEBOOKS), "the index lists too few sections"
        for i, name in enumerate(pages):
            page.goto((student_html / name).as_uri(), wait_until="load")
            page.wait_for_timeout(200)
            if i:  # a notebook's page: contents, previous and next, above and below
                for where in ("top", "bottom"):
                    links = page.eval_on_selector_all(f"nav.pager.{where} a", "as => as.map(a => [a.rel, a.getAttribute('href')])")
                    expected = ([["prev", pages[i - 1]]] if i > 1 else []) + [["", "index.html"]] \
                        + ([["next", pages[i + 1]]] if i + 1 < len(pages) else [])
                    assert links == expected, f"{name}, {where}: {links}"
                for anchor in page.eval_on_selector_all("main h2[id]", "hs => hs.map(h => h.id)"):
                    assert f"{name}#{anchor}" in sections, f"{name}: section {anchor} is not in the index"
            violations = axe.run(page).response["violations"]
            found = [(v["id"], v["impact"], len(v["nodes"])) for v in violations]
            if found:
                flagged[name] = found
        context.close()
    assert not remote, f"pages asked another host for: {remote[:5]}"
    assert not flagged, f"axe violations (rule, impact, nodes): {flagged}"


@pytest.mark.browser
def test_figures_carry_their_alt_text(student_html: Path) -> None:
    generic = "No description has been provided for this image"
    for path in NOTEBOOKS:
        soup = BeautifulSoup((student_html / f"{path.stem}.html").read_text(encoding="utf-8"), features="html.parser")
        images = soup.select(".jp-OutputArea-output img")
        described = [img for img in images if img.get("alt") and img["alt"] != generic]
        assert len(described) == len(images), f"{path.stem}: {len(images) - len(described)} figures without alt text"
