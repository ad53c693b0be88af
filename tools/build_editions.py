"""Build the offline editions of the executed notebooks: reveal.js slide decks or static HTML pages.

    python tools/build_editions.py slides [--out build/slides] [NOTEBOOK ...]
    python tools/build_editions.py html   [--out build/html]   [NOTEBOOK ...]

Each edition is a folder that works from file:// or any static server, with no network: the
scripts the pages load (reveal.js, require.js, jQuery, MathJax 2, the Jupyter widgets renderer)
are copied from web/node_modules (`npm ci --prefix web`, run by `make slides` / `make html`)
into its vendor/ folder, and the pages point at them by relative paths. index.html lists the
notebooks with their titles. Notebooks with a code cell that was never executed are left out.
"""

from __future__ import annotations

import argparse
import html
import shutil
import sys
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter, SlidesExporter
from nbconvert.filters import markdown_mistune
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "web" / "node_modules"
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
SUFFIX = {"slides": ".slides.html", "html": ".html"}


def exporter(edition: str) -> HTMLExporter:
    """Return the nbconvert exporter of an edition, pointed at the copies in vendor/."""
    config = Config()
    name = "SlidesExporter" if edition == "slides" else "HTMLExporter"
    config[name].require_js_url = f"{VENDOR}/require.js"
    config[name].jquery_url = f"{VENDOR}/jquery.min.js"
    config[name].mathjax_url = f"{VENDOR}/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
    config[name].widget_renderer_url = f"{VENDOR}/widgets/embed-amd.js"
    if edition == "slides":
        config.SlidesExporter.reveal_url_prefix = f"{VENDOR}/reveal.js"
        config.SlidesExporter.reveal_theme = "white"  # nbconvert's "simple" loads Google Fonts
        config.SlidesExporter.reveal_scroll = True  # long outputs scroll inside their slide
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


def write_index(out: Path, edition: str, entries: list[tuple[str, str, str]]) -> None:
    """Write out/index.html: a link to each page with its notebook's title and summary."""
    kind = "Slide decks" if edition == "slides" else "Notebooks"
    items = "\n".join(f'  <li><a href="{html.escape(href)}">{inline_markdown(title)}</a>'
                      f'<p>{inline_markdown(summary)}</p></li>' for href, title, summary in entries)
    (out / "index.html").write_text(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hybridization, hands on: {kind.lower()}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }}
li {{ margin-bottom: 1rem; }} li p {{ margin: 0.2rem 0 0; color: #444; }} code {{ font-size: 0.95em; }}
</style>
</head>
<body>
<h1>Hybridization, hands on</h1>
<p>{kind}, with the outputs of a full run stored in each notebook.</p>
<ol class="notebooks">
{items}
</ol>
</body>
</html>
""", encoding="utf-8")


def build(edition: str, notebooks: list[Path], out: Path) -> list[Path]:
    """Build an edition of the executed notebooks into out (emptied first); return the pages."""
    if edition not in SUFFIX:
        raise ValueError(f"edition must be 'slides' or 'html', got {edition!r}")
    if not NODE_MODULES.is_dir():
        raise FileNotFoundError(f"{NODE_MODULES.relative_to(ROOT)} is missing: run `make {edition}` "
                                "(npm ci --prefix web) first")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    copy_vendor(out)
    export = exporter(edition)
    pages, entries = [], []
    for path in sorted(notebooks):
        nb = nbformat.read(path, as_version=4)
        if not is_executed(nb):
            print(f"{path.name}: left out (a code cell has not been executed; run make outputs)")
            continue
        body, _ = export.from_notebook_node(nb, resources={"metadata": {"name": path.stem}})
        page = out / (path.stem + SUFFIX[edition])
        page.write_text(body, encoding="utf-8")
        pages.append(page)
        entries.append((page.name, *title_and_summary(nb, path.stem)))
    write_index(out, edition, entries)
    print(f"{edition}: {len(pages)} page(s) and index.html in {out}")
    return pages


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and build."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("edition", choices=sorted(SUFFIX))
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_intermixed_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    try:
        build(args.edition, notebooks, args.out or ROOT / "build" / args.edition)
    except FileNotFoundError as error:
        sys.exit(str(error))


if __name__ == "__main__":
    main()
