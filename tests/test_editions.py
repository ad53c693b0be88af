"""The offline editions: `make slides` decks and the `make html` pages render with the network cut off.

Builds both editions (tools/build_editions.py, as make does) into a temporary folder and opens
them from file:// in headless Chromium, with every request to another host aborted and recorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from jupyterlab_driver import MISSING_CHROMIUM, ROOT, block_remote, chromium, chromium_path

pytestmark = pytest.mark.browser
FOLDER = Path(os.environ.get("HYBRID_BROWSER_NOTEBOOKS") or ROOT / "notebooks")
NODE_MODULES = ROOT / "web" / "node_modules"


def executed_notebooks() -> list[Path]:
    """Return the notebooks the editions include: those whose code cells were all executed."""
    def executed(path: Path) -> bool:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return all(c.get("execution_count") is not None for c in cells
                   if c["cell_type"] == "code" and "".join(c["source"]).strip())
    return [path for path in sorted(FOLDER.glob("[0-9]*.ipynb")) if executed(path)]


def expected_slides(path: Path) -> int:
    """Count the slides of a notebook's lecture deck (tools/decks.py: the cells tagged for it)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import decks
    return decks.slide_count(nbformat.read(path, as_version=4))


def stored_outputs(path: Path, mime: str) -> int:
    """Count the outputs of a MIME type stored in a notebook."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(mime in o.get("data", {}) for c in cells for o in c.get("outputs", []))


@pytest.fixture(scope="module")
def browser():
    """Yield a headless Chromium, or skip saying what to install."""
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    if not NODE_MODULES.is_dir():
        pytest.skip("web/node_modules is missing: install Node.js and npm, then `make slides` "
                    "(npm ci --prefix web)")
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def notebooks():
    """The executed notebooks, or skip when there is none yet."""
    found = executed_notebooks()
    if not found:
        pytest.skip(f"no executed notebook in {FOLDER}")
    return found


def build(edition: str, out: Path, notebooks: list[Path]) -> None:
    """Run the build tool as `make slides` / `make html` do, into out."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_editions.py"), edition, "--out", str(out),
                    *map(str, notebooks)], check=True, capture_output=True, text=True)


class OfflinePage:
    """A page of a fresh browser context where requests to other hosts are aborted and recorded."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.remote = block_remote(self.context)
        self.page = self.context.new_page()
        self.failed: list[str] = []
        self.errors: list[str] = []
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url[:120]} ({r.failure})"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, path: Path) -> None:
        """Open a built file and wait until it has loaded."""
        self.page.goto(path.as_uri(), wait_until="load")

    def assert_clean(self, what: str) -> None:
        """Fail on any request to another host, any failed load and any script error."""
        assert not self.remote, f"{what} asked another host for: {self.remote[:5]}"
        assert not self.failed, f"{what}: failed loads: {self.failed[:5]}"
        assert not self.errors, f"{what}: script errors: {self.errors[:5]}"


def test_slide_deck_renders_offline(browser, notebooks, tmp_path):
    deck = max(notebooks, key=expected_slides)  # the deck with the most slides
    build("slides", tmp_path, [deck])
    view = OfflinePage(browser)
    view.open(tmp_path / f"{deck.stem}.slides.html")
    view.page.wait_for_selector(".reveal.ready", timeout=30_000)
    ready, total = view.page.evaluate("""() => new Promise(resolve =>
        require(['vendor/reveal.js/dist/reveal.js'], R => resolve([R.isReady(), R.getTotalSlides()])))""")
    assert ready
    assert total == expected_slides(deck), f"{deck.name}: {total} slides, its tags ask for {expected_slides(deck)}"
    # Moving on re-renders MathJax and resizes long slides (jQuery): both must be there.
    view.page.evaluate("""() => new Promise(resolve =>
        require(['vendor/reveal.js/dist/reveal.js'], R => { R.next(); R.next(); resolve(); }))""")
    view.page.wait_for_timeout(500)
    assert view.page.evaluate("() => Boolean(window.MathJax && window.MathJax.Hub)")
    view.assert_clean(f"{deck.name} slides")
    view.context.close()


def test_html_edition_index_and_pages_render_offline(browser, notebooks, tmp_path):
    build("html", tmp_path, notebooks)
    view = OfflinePage(browser)
    view.open(tmp_path / "index.html")
    links = view.page.eval_on_selector_all("ol.notebooks > li > a", "as => as.map(a => [a.getAttribute('href'), a.textContent])")
    assert [href for href, _ in links] == [f"{nb.stem}.html" for nb in notebooks]
    assert all(title.strip() for _, title in links)
    view.assert_clean("index.html")
    for notebook in notebooks:
        view.open(tmp_path / f"{notebook.stem}.html")
        view.page.wait_for_timeout(300)  # MathJax and the widgets renderer start after load
        images = view.page.eval_on_selector_all(".jp-OutputArea-output img", "is => is.length")
        assert images >= stored_outputs(notebook, "image/png"), f"{notebook.name}: {images} figures shown"
        if stored_outputs(notebook, "application/vnd.jupyter.widget-view+json"):  # progress bars
            view.page.wait_for_selector(".jupyter-widgets", timeout=10_000)
        view.assert_clean(f"{notebook.stem}.html")
    view.context.close()
