"""Every notebook run as a student runs it: JupyterLab in headless Chromium, Run All from the menu.

One JupyterLab server (this environment, 127.0.0.1, a random token, quick mode inherited) and
one browser serve all notebooks. The server's root is a copy of the notebooks, so nothing is
written back into notebooks/. Each notebook must run to the end with no error other than the
deliberate ones, every code cell executed, and every figure and progress bar of the stored
notebook shown; a screenshot of each lands in build/screenshots/. HYBRID_BROWSER_NOTEBOOKS=DIR
runs the notebooks of another folder instead.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import psutil
import pytest

from conftest import required_frameworks
from helpers import frameworks
from jupyterlab_driver import (MISSING_CHROMIUM, NBGRADER_SHELL_JS, ROOT, SCREENSHOTS, JupyterLab, block_remote, chromium,
                               chromium_path, compare_run, port_is_open, run_all_in_lab, screenshot)

pytestmark = pytest.mark.browser
FOLDER = Path(os.environ.get("HYBRID_BROWSER_NOTEBOOKS") or ROOT / "notebooks")
NOTEBOOKS = sorted(path.name for path in FOLDER.glob("[0-9]*.ipynb"))
# Seconds for each step (opening, Run All): quick mode asks for at most 60 s on a quiet machine.
TIMEOUT = 300


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """Yield (server, browser context, remote requests attempted); afterwards check nothing is left."""
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    home = tmp_path_factory.mktemp("jupyterlab")
    root = home / "notebooks"
    shutil.copytree(FOLDER, root, ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints"))
    server = JupyterLab(root, home)
    try:
        server.start()
        with chromium() as browser:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            attempted = block_remote(context)
            yield server, context, attempted
            context.close()
    finally:
        server.stop()
    _, left = psutil.wait_procs([p for p in me.children(recursive=True) if p.pid not in before], timeout=10)
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"
    assert not port_is_open(server.port), f"port {server.port} still open"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_in_jupyterlab(lab, name):
    stored = json.loads((FOLDER / name).read_text(encoding="utf-8"))["cells"]
    missing = [fw for fw in required_frameworks(FOLDER / name) if not frameworks.is_installed(fw)]
    if missing:
        pytest.skip(frameworks.missing_reason(missing))
    server, context, attempted = lab
    page = context.new_page()
    try:
        result = run_all_in_lab(page, server, name, TIMEOUT)
        screenshot(page, SCREENSHOTS / f"{Path(name).stem}.png")
    finally:
        page.close()
        server.shut_down_sessions()
    seconds = result["seconds"]
    print(f"{name}: opened in {seconds['open']:.1f} s, Run All took {seconds['run']:.1f} s")
    assert server.api("GET", "kernels") == []
    problems = compare_run(stored, result["cells"])
    assert not problems, f"{name} in JupyterLab:\n" + "\n".join(problems)
    assert not attempted, f"{name} asked for remote resources: {attempted[:5]}"


def nbgrader_tools(context, server: JupyterLab) -> dict:
    """What nbgrader shows in a JupyterLab page of `server`: menus, sidebar tabs, its commands."""
    page = context.new_page()
    try:
        page.goto(server.url("lab?reset"))
        page.wait_for_selector(".jp-SideBar .lm-TabBar-tab", timeout=120_000)
        page.wait_for_timeout(1000)  # the extensions' commands register as they activate
        return page.evaluate(NBGRADER_SHELL_JS)
    finally:
        page.close()


def test_students_see_no_instructor_tools_and_instructors_do(lab, tmp_path):
    server, context, attempted = lab
    student = nbgrader_tools(context, server)
    assert student["commands"] == ["nbgrader:open-assignment-list"], student
    assert not [t for t in student["sidebar"] if "Create Assignment" in t], student
    instructor_server = JupyterLab(server.root_dir, tmp_path, instructor=True)
    try:
        instructor_server.start()
        instructor = nbgrader_tools(context, instructor_server)
    finally:
        instructor_server.stop()
    assert {"nbgrader:open-formgrader", "nbgrader:open-create-assignment", "nbgrader:open-course-list"} \
        <= set(instructor["commands"]), instructor
    assert [t for t in instructor["sidebar"] if "Create Assignment" in t] and "Nbgrader" in instructor["menus"], instructor
    assert not attempted, f"asked for remote resources: {attempted[:5]}"
