"""Lecture decks an instructor can present: every slide of every deck fits a 1280 x 720 screen.

Builds the decks as `make slides` and `make handout` do (tools/build_editions.py, tools/decks.py),
opens each in headless Chromium at 1280 x 720, visits every slide and measures it from the page:
a slide fails when an element reaches below or right of the slide, or when a code or output block
is wider than its box. Screenshots of the first three slides of each deck go to
build/screenshots/. A deliberately overlong cell must fail (the last test).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

from jupyterlab_driver import MISSING_CHROMIUM, ROOT, SCREENSHOTS, block_remote, chromium, chromium_path
from test_editions import NODE_MODULES, executed_notebooks

sys.path.insert(0, str(ROOT / "tools"))
import build_editions  # noqa: E402
import decks  # noqa: E402

pytestmark = pytest.mark.browser
WIDTH, HEIGHT = 1280, 720

# For each slide: how far its content reaches past the slide (in slide pixels), and blocks cut off.
MEASURE_JS = """() => new Promise(resolve => require(['vendor/reveal.js/dist/reveal.js'], R => {
  const results = [];
  R.configure({transition: 'none', backgroundTransition: 'none'});  // measure where slides come to rest
  const slides = R.getSlides();
  const config = R.getConfig();
  for (const slide of slides) {
    const idx = R.getIndices(slide);
    R.slide(idx.h, idx.v);
    const scale = R.getScale();
    const box = document.querySelector('.reveal .slides').getBoundingClientRect();
    let bottom = 0, right = 0;
    for (const el of slide.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      bottom = Math.max(bottom, (r.bottom - box.top) / scale);
      right = Math.max(right, (r.right - box.left) / scale);
    }
    const cut = [...slide.querySelectorAll('pre, table, .jp-OutputArea-output')]
      .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      .map(el => el.tagName.toLowerCase() + ': ' + (el.textContent || '').trim().slice(0, 60));
    const title = (slide.querySelector('h1, h2, h3') || {}).textContent || '';
    results.push({h: idx.h, v: idx.v, title: title.replace('¶', '').trim().slice(0, 60),
                  below: Math.round(bottom - config.height), right: Math.round(right - config.width), cut});
  }
  R.slide(0, 0);
  resolve(results);
}))"""


def build_decks(out: Path, notebooks: list[Path], student: bool = False) -> list[Path]:
    """Build the decks of `notebooks` into out (as make slides / make handout do)."""
    return build_editions.build("slides", notebooks, out, student=student)


def overflowing(page, deck: Path) -> tuple[list[str], int]:
    """Open a deck and return (its slides that do not fit, its slide count)."""
    page.goto(deck.as_uri(), wait_until="load")
    page.wait_for_selector(".reveal.ready", timeout=30_000)
    page.wait_for_timeout(300)
    results = page.evaluate(MEASURE_JS)
    bad = [f"{deck.name} slide {r['h']}/{r['v']} '{r['title']}': "
           + ", ".join(filter(None, [f"{r['below']}px below" if r["below"] > 0 else "",
                                     f"{r['right']}px right" if r["right"] > 0 else "",
                                     f"cut off: {r['cut'][:2]}" if r["cut"] else ""]))
           for r in results if r["below"] > 0 or r["right"] > 0 or r["cut"]]
    return bad, len(results)


@pytest.fixture(scope="module")
def page():
    """A headless Chromium page at 1280 x 720 with every request to another host blocked."""
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    if not NODE_MODULES.is_dir():
        pytest.skip("web/node_modules is missing: install Node.js and npm, then `make slides`")
    with chromium() as browser:
        context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        remote = block_remote(context)
        yield context.new_page()
        assert not remote, f"a deck asked another host for {remote[:3]}"
        context.close()


@pytest.mark.parametrize("student", [False, True], ids=["instructor", "student"])
def test_every_slide_of_every_deck_fits_the_screen(page, tmp_path: Path, student: bool) -> None:
    notebooks = executed_notebooks()
    if not notebooks:
        pytest.skip("no executed notebook")
    decks_built = build_decks(tmp_path, notebooks, student)
    problems, counts = [], {}
    for deck in decks_built:
        bad, counts[deck.name] = overflowing(page, deck)
        problems += bad
        if not student:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for n in range(min(3, counts[deck.name])):
                page.evaluate(f"() => require(['vendor/reveal.js/dist/reveal.js'], R => R.slide({n}, 0))")
                page.wait_for_timeout(400)
                page.screenshot(path=str(SCREENSHOTS / f"{deck.name.removesuffix('.slides.html')}-slide{n + 1}.png"))
    print("slides per deck:", counts)
    assert not problems, "slides that do not fit 1280 x 720:\n" + "\n".join(problems)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    for deck in decks_built:
        assert f"({counts[deck.name]} slides)" in index, f"the index does not give {deck.name}'s length"


def test_student_decks_have_no_solution(tmp_path: Path) -> None:
    notebooks = executed_notebooks()
    if not notebooks or not NODE_MODULES.is_dir():
        pytest.skip("needs executed notebooks and web/node_modules")
    import html
    for deck in build_decks(tmp_path, notebooks, student=True):
        nb = nbformat.read(ROOT / "notebooks" / deck.name.replace(".slides.html", ".ipynb"), as_version=4)
        page = {line.strip() for line in
                html.unescape(re.sub(r"<[^>]+>", "", deck.read_text(encoding="utf-8"))).splitlines()}
        elsewhere = {line.strip() for cell in nb.cells if "solution" not in decks.tags(cell)
                     for line in cell.source.splitlines()}
        for cell in nb.cells:
            if "solution" in decks.tags(cell) and cell.cell_type == "code":
                # lines of a solution's code that appear nowhere else in the notebook
                own = [line.strip() for line in cell.source.splitlines()
                       if len(line.strip()) > 30 and line.strip() not in elsewhere]
                shown = [line for line in own if line in page]
                assert not shown, f"{deck.name} shows a solution: {shown[:2]}"


def test_an_overlong_cell_fails_the_measurement(page, tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    long_code = "\n".join(f"x{i} = {i}  # a line of a cell far too long for one slide" for i in range(60))
    nb.cells = [nbformat.v4.new_markdown_cell("# Overlong\n\nA deck with one cell that cannot fit."),
                nbformat.v4.new_markdown_cell("## Too long"),
                nbformat.v4.new_code_cell(long_code, execution_count=1, metadata={"tags": ["deck"]}),
                nbformat.v4.new_markdown_cell("## Fits"),
                nbformat.v4.new_code_cell("y = 1", execution_count=2, metadata={"tags": ["deck"]})]
    path = tmp_path / "99_overlong.ipynb"
    nbformat.write(nb, path)
    [deck] = build_decks(tmp_path / "out", [path])
    bad, count = overflowing(page, deck)
    assert count == 3
    assert len(bad) == 1 and "'Too long'" in bad[0] and "below" in bad[0]
