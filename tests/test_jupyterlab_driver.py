"""What the browser test counts as a failed run in JupyterLab, checked without a browser."""

import nbformat

from jupyterlab_driver import compare_run, is_local

PNG = {"image/png": "iVBOR", "text/plain": "<Figure size 640x480 with 1 Axes>"}


def cell(source, *outputs, tags=(), count=1):
    """An nbformat code cell as JSON, with outputs and tags."""
    c = nbformat.v4.new_code_cell(source, execution_count=count, outputs=list(outputs))
    if tags:
        c.metadata["tags"] = list(tags)
    return c


def shown(json_cell, images=0, widgets=0, widget_errors=0):
    """What CELLS_JS reports for a cell."""
    return {"json": json_cell, "prompt": "[1]:", "images": images, "widgets": widgets, "widget_errors": widget_errors}


def error():
    return nbformat.v4.new_output("error", ename="ValueError", evalue="boom", traceback=[])


def stream(name, text):
    return nbformat.v4.new_output("stream", name=name, text=text)


def test_a_faithful_run_passes_and_deliberate_errors_are_fine():
    stored = [nbformat.v4.new_markdown_cell("# T"),
              cell("plot()", nbformat.v4.new_output("display_data", data=PNG)),
              cell("raise ValueError('boom')", error(), tags=["raises-exception"]),
              cell("1 / 0", error()),
              cell("", count=None)]
    page = [shown(stored[0]), shown(stored[1], images=1), shown(stored[2]), shown(stored[3]),
            shown(cell("", count=None))]
    assert compare_run(stored, page) == []


def test_errors_stderr_missing_figures_widgets_and_unexecuted_cells_are_reported():
    widget = nbformat.v4.new_output("display_data", data={"application/vnd.jupyter.widget-view+json": {}})
    stored = [cell("fails()", stream("stdout", "ok\n")),
              cell("warns()"),
              cell("plot()", nbformat.v4.new_output("display_data", data=PNG)),
              cell("for _ in tqdm(range(3)): pass", widget),
              cell("print('last')")]
    page = [shown(cell("fails()", error())),
            shown(cell("warns()", stream("stderr", "UserWarning: careful\n"))),
            shown(stored[2], images=0),
            shown(stored[3], widgets=1, widget_errors=1),
            shown(cell("print('last')", count=None))]
    problems = compare_run(stored, page)
    assert [p.split(" (")[0] for p in problems] == [f"cell {i}" for i in range(5)]
    assert "ValueError: boom" in problems[0] and "UserWarning" in problems[1]
    assert "0 figure(s)" in problems[2] and "widget" in problems[3] and "not executed" in problems[4]


def test_a_different_number_of_cells_is_one_problem():
    assert compare_run([cell("a")], []) == ["the page shows 0 cells, the notebook has 1"]


def test_only_this_machine_counts_as_local():
    assert is_local("file:///tmp/x.html") and is_local("data:text/javascript,1")
    assert is_local("http://127.0.0.1:8888/lab") and is_local("http://localhost/x")
    assert not is_local("https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js")
