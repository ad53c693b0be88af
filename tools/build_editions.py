"""Build the offline editions of the executed notebooks: slide decks, HTML pages, notebooks, handouts.

    python tools/build_editions.py slides    [--student] [--out build/slides]  [NOTEBOOK ...]
    python tools/build_editions.py html      [--student] [--out build/html]    [NOTEBOOK ...]
    python tools/build_editions.py notebooks  --student  [--out DIR]           [NOTEBOOK ...]
    python tools/build_editions.py handout               [--out build/handout] [NOTEBOOK ...]

The instructor edition (the default) is everything as stored, worked solutions included. The
student edition (--student) leaves out every cell tagged `solution`, source and outputs, with
nbconvert's TagRemovePreprocessor; `handout` (`make handout`) builds it three times, into
notebooks/, html/ and slides/ under its folder.

Each HTML or slide edition is a folder that works from file:// or any static server, with no
network: the scripts the pages load (reveal.js, require.js, jQuery, MathJax 2, the Jupyter
widgets renderer) are copied from web/node_modules (`npm ci --prefix web`, run by `make slides`
/ `make html`) into its vendor/ folder, and the pages point at them by relative paths.
index.html lists the notebooks with their titles and, in the HTML edition, their sections;
every HTML page links to the contents and to the previous and next notebook. The templates in
tools/templates extend nbconvert's lab and reveal templates: they add these links and write
each figure's alt text (set by helpers.plotting) into <img alt>. Notebooks with a code cell
that was never executed are left out.
"""

from __future__ import annotations

import argparse
import html
import shutil
import sys
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup
from nbconvert import HTMLExporter, NotebookExporter, SlidesExporter
from nbconvert.exporters import Exporter
from nbconvert.filters import markdown_mistune
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent))
import decks  # noqa: E402  (tools/decks.py: what each slide shows)

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "web" / "node_modules"
TEMPLATES = ROOT / "tools" / "templates"
SOLUTION_TAG = "solution"
VENDOR = "vendor"
# What each page needs from web/node_modules: (source, destination under vendor/).
ASSETS = [
    ("reveal.js/dist", "reveal.js/dist"),
    ("reveal.js/plugin/notes", "reveal.js/plugin/notes"),
    ("requirejs/require.js", "require.js"),
    ("jquery/dist/jquery.min.js", "jquery.min.js"),
    ("mathjax/MathJax.js", "mathjax/MathJax.js"),
    ("mathjax/config/TeX-AMS_CHTML-full.js", "mathjax/config/TeX-AMS_CHTML-full.js"),
    ("mathjax/config/Safe.js", "mathjax/config/Safe.js"),
    ("mathjax/extensions", "mathjax/extensions"),
    ("mathjax/jax/element", "mathjax/jax/element"),
    ("mathjax/jax/input/TeX", "mathjax/jax/input/TeX"),
    ("mathjax/jax/output/CommonHTML", "mathjax/jax/output/CommonHTML"),
    ("mathjax/fonts/HTML-CSS/TeX/woff", "mathjax/fonts/HTML-CSS/TeX/woff"),
    ("mathjax/localization/en", "mathjax/localization/en"),
    ("@jupyter-widgets/html-manager/dist", "widgets"),
]
SKIP = shutil.ignore_patterns("*.map", "*.esm.js", "embed.js*", "libembed-amd.js", "*.LICENSE.txt")
# The reveal template imports Mermaid on every page (an ES module, which file:// pages may not
# load); no notebook here draws a Mermaid diagram, so the pages import this empty stand-in.
NO_MERMAID = "data:text/javascript,export default {initialize() {}};"
SUFFIX = {"slides": ".slides.html", "html": ".html", "notebooks": ".ipynb"}
HANDOUT = ("notebooks", "html", "slides")


def exporter(edition: str, student: bool = False) -> Exporter:
    """Return the nbconvert exporter of an edition; student=True drops the solution cells."""
    config = Config()
    if student:
        config.TagRemovePreprocessor.enabled = True
        config.TagRemovePreprocessor.remove_cell_tags = {SOLUTION_TAG}
    if edition == "slides":  # a figure's slide shows the figure; its code is in the speaker notes
        config.TagRemovePreprocessor.enabled = True
        config.TagRemovePreprocessor.remove_input_tags = {decks.FIGURE}
    if edition == "notebooks":
        return NotebookExporter(config=config)
    name = "SlidesExporter" if edition == "slides" else "HTMLExporter"
    config[name].extra_template_basedirs = [str(TEMPLATES)]
    config[name].extra_template_paths = [str(TEMPLATES)]  # for the shared alt_text.j2
    config[name].template_name = "hybrid_slides" if edition == "slides" else "hybrid_html"
    config[name].require_js_url = f"{VENDOR}/require.js"
    config[name].jquery_url = f"{VENDOR}/jquery.min.js"
    config[name].mathjax_url = f"{VENDOR}/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    config[name].widget_renderer_url = f"{VENDOR}/widgets/embed-amd.js"
    if edition == "slides":
        config.SlidesExporter.reveal_url_prefix = f"{VENDOR}/reveal.js"
        config.SlidesExporter.reveal_theme = "white"  # nbconvert's "simple" loads Google Fonts
        # A 16:9 deck; nothing scrolls: a slide whose content is larger than the slide is a defect
        # (tests/test_slides.py measures every slide).
        config.SlidesExporter.reveal_width = "1280"
        config.SlidesExporter.reveal_height = "720"
        config.SlidesExporter.reveal_scroll = False
    result = SlidesExporter(config=config) if edition == "slides" else HTMLExporter(config=config)
    result.mermaid_js_url = NO_MERMAID  # not a configurable trait
    return result


def is_executed(nb: nbformat.NotebookNode) -> bool:
    """Return True when every non-empty code cell of a notebook has been executed."""
    return all(cell.execution_count is not None for cell in nb.cells
               if cell.cell_type == "code" and cell.source.strip())


def title_and_summary(nb: nbformat.NotebookNode, fallback: str) -> tuple[str, str]:
    """Return the notebook's '# Title' and the first paragraph after it."""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("# "):
            title, _, rest = cell.source.lstrip()[2:].partition("\n")
            summary = rest.strip().split("\n\n")[0].replace("\n", " ")
            return title.strip(), summary
    return fallback, ""


def inline_markdown(text: str) -> str:
    """Render a line of markdown (code, emphasis, math) as HTML, without the paragraph around it."""
    return markdown_mistune.markdown2html_mistune(text).strip().removeprefix("<p>").removesuffix("</p>")


def copy_vendor(out: Path) -> None:
    """Copy the scripts the pages load from web/node_modules into out/vendor/."""
    for source, destination in ASSETS:
        src, dst = NODE_MODULES / source, out / VENDOR / destination
        if src.is_dir():
            shutil.copytree(src, dst, ignore=SKIP, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def sections(page: str) -> list[tuple[str, str]]:
    """Return (anchor, text) of each second-level heading (## ...) of a rendered HTML page."""
    soup = BeautifulSoup(page, features="html.parser")
    return [(h2["id"], h2.get_text().rstrip("¶").strip()) for h2 in soup.select("main h2[id]")]


def pager(entries: list[tuple[str, str, str]], i: int, where: str) -> str:
    """Return the navigation of page i: the contents, the previous and the next notebook."""
    def link(j: int, rel: str, arrow: str) -> str:
        if not 0 <= j < len(entries):
            return "<span></span>"
        href, title, _ = entries[j]
        text = f"{arrow} {inline_markdown(title)}" if rel == "prev" else f"{inline_markdown(title)} {arrow}"
        word = "Previous" if rel == "prev" else "Next"
        return f'<a rel="{rel}" href="{html.escape(href)}"><span class="visually-hidden">{word}: </span>{text}</a>'
    label = "Notebooks" if where == "top" else "Notebooks, end of page"
    return (f'<nav class="pager {where}" aria-label="{label}">{link(i - 1, "prev", "←")}'
            f'<a href="index.html">Contents ({i + 1} of {len(entries)})</a>{link(i + 1, "next", "→")}</nav>')


def write_index(out: Path, edition: str, entries: list[tuple[str, str, str]], title: str,
                contents: dict[str, list[tuple[str, str]]] | None = None,
                lengths: dict[str, int] | None = None) -> None:
    """Write out/index.html: a link to each page with its notebook's title, summary and sections.

    `lengths` (decks only) gives each deck's number of slides, shown beside its title.
    """
    kind = "Slide decks" if edition == "slides" else "Notebooks"
    contents = contents or {}
    lengths = lengths or {}

    def item(href: str, title: str, summary: str) -> str:
        parts = "".join(f'<li><a href="{html.escape(href)}#{html.escape(anchor)}">{inline_markdown(text)}</a></li>'
                        for anchor, text in contents.get(href, []))
        length = f' <span class="length">({lengths[href]} slides)</span>' if href in lengths else ""
        return (f'  <li><a href="{html.escape(href)}">{inline_markdown(title)}</a>{length}'
                f'<p>{inline_markdown(summary)}</p>'
                + (f'<ul class="sections">{parts}</ul>' if parts else "") + "</li>")
    items = "\n".join(item(*entry) for entry in entries)
    (out / "index.html").write_text(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hybridization, hands on: {kind.lower()}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }}
ol.notebooks > li {{ margin-bottom: 1rem; }} li p {{ margin: 0.2rem 0 0; color: #444; }} code {{ font-size: 0.95em; }}
ul.sections {{ margin: 0.2rem 0 0; padding-left: 1.2rem; font-size: 0.95em; }}
</style>
</head>
<body>
<main>
<h1>Hybridization, hands on</h1>
<p>{kind}, {title}, with the outputs of a full run stored in each notebook.</p>
<ol class="notebooks">
{items}
</ol>
</main>
</body>
</html>
""", encoding="utf-8")


def build(edition: str, notebooks: list[Path], out: Path, student: bool = False) -> list[Path]:
    """Build an edition of the executed notebooks into out (emptied first); return the pages."""
    if edition not in SUFFIX:
        raise ValueError(f"edition must be one of {sorted(SUFFIX)}, got {edition!r}")
    if edition == "notebooks" and not student:
        raise ValueError("the notebooks themselves are the instructor edition: build notebooks with student=True")
    if edition != "notebooks" and not NODE_MODULES.is_dir():
        raise FileNotFoundError(f"{NODE_MODULES.relative_to(ROOT)} is missing: run `make {edition}` "
                                "(npm ci --prefix web) first")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    export = exporter(edition, student)
    chosen = []
    for path in sorted(notebooks):
        nb = nbformat.read(path, as_version=4)
        if is_executed(nb):
            chosen.append((path, nb))
        else:
            print(f"{path.name}: left out (a code cell has not been executed; run make outputs)")
    entries = [(path.stem + SUFFIX[edition], *title_and_summary(nb, path.stem)) for path, nb in chosen]
    pages, contents, lengths = [], {}, {}
    for i, (path, nb) in enumerate(chosen):
        resources = {"metadata": {"name": path.stem}}
        if edition == "slides":
            lengths[entries[i][0]] = decks.slide_count(nb, student)
            nb = decks.deck(nb)
        if edition == "html":
            resources["pager"] = {where: pager(entries, i, where) for where in ("top", "bottom")}
        body, _ = export.from_notebook_node(nb, resources=resources)
        page = out / entries[i][0]
        page.write_text(body, encoding="utf-8")
        pages.append(page)
        if edition == "html":
            contents[page.name] = sections(body)
    title = "student edition (no solutions)" if student else "instructor edition (with worked solutions)"
    if edition != "notebooks":
        copy_vendor(out)
        write_index(out, edition, entries, title, contents, lengths)
    print(f"{edition}, {title}: {len(pages)} file(s) in {out}")
    return pages


def handout(notebooks: list[Path], out: Path) -> dict[str, list[Path]]:
    """Build the student edition (notebooks, HTML, slides) into out/notebooks, out/html, out/slides."""
    return {edition: build(edition, notebooks, out / edition, student=True) for edition in HANDOUT}


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and build."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("edition", choices=sorted([*SUFFIX, "handout"]))
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--student", action="store_true", help="leave out the cells tagged 'solution'")
    args = parser.parse_intermixed_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    out = args.out or ROOT / "build" / args.edition
    try:
        if args.edition == "handout":
            handout(notebooks, out)
        else:
            build(args.edition, notebooks, out, student=args.student)
    except (FileNotFoundError, ValueError) as error:
        sys.exit(str(error))


if __name__ == "__main__":
    main()
