"""Drive JupyterLab and built pages in headless Chromium (Debian's `chromium`) with Playwright.

Used by test_browser.py (every notebook run through JupyterLab's UI) and test_editions.py
(the slide decks and the HTML edition opened offline). No test lives here.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from setup_env import lab_environment  # noqa: E402
SCREENSHOTS = ROOT / "build" / "screenshots"
# Flags that make Debian's chromium work headless here (see README, "Browser tests").
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MISSING_CHROMIUM = ("chromium is not installed: the browser tests need it "
                    "(Debian/Ubuntu: sudo apt-get install chromium; see README, 'Browser tests')")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
LOCAL_SCHEMES = {"file", "data", "blob", "about"}
# Calls to the local server never go through an HTTP proxy set in the environment.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# What nbgrader adds to JupyterLab: the menus, the left sidebar's tabs and the nbgrader commands.
NBGRADER_SHELL_JS = """() => ({
  menus: [...document.querySelectorAll('.lm-MenuBar-itemLabel')].map(e => e.textContent),
  sidebar: [...document.querySelectorAll('.jp-SideBar .lm-TabBar-tab')].map(e => e.title || e.textContent),
  commands: window.jupyterapp.commands.listCommands().filter(c => c.startsWith('nbgrader:'))
})"""

def chromium_path() -> str | None:
    """Return the path of the system's chromium, or None where it is missing."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def chromium() -> Iterator[Any]:
    """Yield a headless Playwright browser running the system's chromium; close it after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def is_local(url: str) -> bool:
    """Return True for a URL that needs no network: a file, inline data or 127.0.0.1."""
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or parts.hostname in LOCAL_HOSTS


def block_remote(context: Any) -> list[str]:
    """Abort every request of a browser context that would leave this machine; return the list it fills."""
    attempted: list[str] = []

    def route(route: Any) -> None:
        if is_local(route.request.url):
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort("internetdisconnected")

    context.route("**/*", route)
    return attempted


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_open(port: int) -> bool:
    """Return True when something accepts connections on 127.0.0.1:port."""
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0



def start_logged(command: list[str], log: Path, env: dict, cwd: Any = None) -> subprocess.Popen:
    """Start a server process in its own session, its output going to the file `log`."""
    with open(log, "w") as out:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def wait_or_kill(process: subprocess.Popen, timeout: float) -> None:
    """Wait for a stopping server; kill its whole process group if it hangs."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def wait_until_answering(process: subprocess.Popen, answers: Callable[[], bool], what: str,
                         log_tail: Callable[[], str], timeout: float = 120) -> None:
    """Wait until `answers()` is true; fail with the log's end if the process exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}:\n{log_tail()}")
        try:
            if answers():
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"{what} did not answer within {timeout} s:\n{log_tail()}")

class JupyterLab:
    """A JupyterLab server of this environment on 127.0.0.1, a free port and a random token."""

    def __init__(self, root_dir: Path, home: Path, instructor: bool = False) -> None:
        """Prepare a server on root_dir; its settings, workspaces and runtime files go to home.

        As `make lab` does, the server shows a student's JupyterLab (jupyter/student/ on
        JUPYTER_CONFIG_PATH: no nbgrader instructor tools) unless `instructor` is True.
        """
        self.root_dir, self.home, self.instructor = Path(root_dir), Path(home), instructor
        self.port, self.token = free_port(), secrets.token_urlsafe(24)
        self.process: subprocess.Popen | None = None
        self.log = self.home / "jupyterlab.log"

    @property
    def base(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        """Return the URL of a JupyterLab path with the token."""
        sep = "&" if "?" in path else "?"
        return f"{self.base}/{path.lstrip('/')}{sep}token={self.token}"

    def api(self, method: str, path: str) -> Any:
        """Call the server's REST API; return the decoded JSON answer (None when empty)."""
        request = urllib.request.Request(self.url(f"api/{path}"), method=method)
        with DIRECT.open(request, timeout=30) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def start(self, timeout: float = 120) -> None:
        """Start the server (quick mode and the rest of the environment inherited) and wait for it."""
        settings = self.home / "settings"
        docmanager = settings / "@jupyterlab" / "docmanager-extension"
        docmanager.mkdir(parents=True, exist_ok=True)
        # The server root is a copy, but nothing should be written back while the test runs.
        (docmanager / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
        # The view `make lab` opens (tools/setup_env.py): a student's, unless instructor.
        env = dict(lab_environment(self.instructor), JUPYTERLAB_SETTINGS_DIR=str(settings),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.home / "workspaces"),
                   JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
                   JUPYTER_CONFIG_DIR=str(self.home / "config"))
        command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
                   f"--port={self.port}", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root_dir}",
                   # window.jupyterapp: read the notebook's outputs as JupyterLab holds them.
                   "--LabApp.expose_app_in_browser=True"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.process = start_logged(command, self.log, env)

        def answers() -> bool:
            self.api("GET", "status")  # raises until the server answers
            return True
        wait_until_answering(self.process, answers, "JupyterLab", self.log_tail, timeout)

    def log_tail(self, lines: int = 30) -> str:
        """Return the end of the server's log."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) if self.log.exists() else ""

    def shut_down_sessions(self) -> None:
        """Shut down every session and kernel the server holds."""
        for session in self.api("GET", "sessions"):
            self.api("DELETE", f"sessions/{session['id']}")
        for kernel in self.api("GET", "kernels"):
            self.api("DELETE", f"kernels/{kernel['id']}")

    def stop(self, timeout: float = 30) -> None:
        """Shut the server down (kernels first); kill it if it does not exit in time."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self.shut_down_sessions()
            self.api("POST", "shutdown")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            self.process.send_signal(signal.SIGTERM)
        wait_or_kill(self.process, timeout)


# Runs in the page: each cell as JupyterLab holds it (nbformat JSON) and what the page shows for it.
CELLS_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.content.widgets.map(cell => {
    const outputs = [...cell.node.querySelectorAll('.jp-OutputArea-output')];
    return {
      json: cell.model.toJSON(),
      prompt: (cell.node.querySelector('.jp-InputPrompt') || {}).textContent || '',
      images: cell.node.querySelectorAll('.jp-OutputArea-output img').length,
      widgets: cell.node.querySelectorAll('.jp-OutputArea-output .jupyter-widgets').length,
      widget_errors: outputs.filter(o => /Error displaying widget/.test(o.textContent)).length,
    };
  });
}"""
# The kernel's state from the status bar; queued and executed cells from the cell models, since
# a solution cell with its source hidden shows no [*] prompt.
STATUS_JS = r"""() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const code = panel && panel.content ? panel.content.widgets.filter(c => c.model.type === 'code') : [];
  const status = [...document.querySelectorAll('.jp-StatusBar-TextItem')].map(e => e.textContent)
    .find(text => text.includes(' | ')) || '';
  const dialog = document.querySelector('.jp-Dialog');
  return {status: status.split(' | ').pop().trim(), kernel: status.split(' | ')[0].trim(),
          dialog: dialog ? dialog.innerText.replace(/\s+/g, ' ').trim() : '',
          running: code.filter(c => c.model.executionState === 'running').length,
          executed: code.filter(c => c.model.executionCount !== null).length};
}"""


def wait_for(page: Any, predicate: Any, timeout: float, what: str, poll: float = 0.25) -> dict:
    """Poll STATUS_JS until predicate(status) holds; fail at once on a dialog (a dead kernel,
    a missing kernelspec), and with TimeoutError naming what was awaited."""
    deadline = time.monotonic() + timeout
    status: dict = {}
    while time.monotonic() < deadline:
        status = page.evaluate(STATUS_JS)
        if status["dialog"]:
            raise RuntimeError(f"JupyterLab opened a dialog while waiting for {what}: {status['dialog'][:300]}")
        if predicate(status):
            return status
        time.sleep(poll)
    raise TimeoutError(f"{what} not reached within {timeout:.0f} s (last status: {status})")


def run_all_in_lab(page: Any, lab: JupyterLab, name: str, timeout: float) -> dict:
    """Open a notebook in JupyterLab, wait for an idle kernel, Run All from the menu, wait until done.

    Returns {"cells": [...CELLS_JS...], "seconds": {...}}; the page stays open on the notebook.
    """
    start = time.monotonic()
    # ?reset: a fresh workspace, so that the notebooks opened before are not restored.
    page.goto(lab.url(f"lab/tree/{urllib.parse.quote(name)}?reset"))
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout * 1000)
    # A Run All sent before the kernel is ready does nothing: wait for "Idle" in the status bar.
    wait_for(page, lambda s: s["status"] == "Idle", timeout, "kernel Idle after opening")
    opened = time.monotonic()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    # By command id: the label "Run All Cells" also matches "Restart Kernel and Run All Cells".
    page.locator("li[data-command='runmenu:run-all']").click()
    # Run All marks the queued cells running ([*]) at once; done when none is left and the kernel is idle.
    wait_for(page, lambda s: s["executed"] and not s["running"] and s["status"] == "Idle", timeout,
             "end of Run All")
    done = time.monotonic()
    page.wait_for_timeout(300)  # let the last outputs (images, widgets) attach
    return {"cells": page.evaluate(CELLS_JS),
            "seconds": {"open": opened - start, "run": done - opened, "total": done - start}}


def _outputs_of(cell: dict, output_type: str | None = None, name: str | None = None,
                mime: str | None = None) -> list[dict]:
    """Return the outputs of an nbformat cell dict matching a type, a stream name or a MIME type."""
    return [o for o in cell.get("outputs", [])
            if (output_type is None or o.get("output_type") == output_type)
            and (name is None or o.get("name") == name)
            and (mime is None or mime in o.get("data", {}))]


def compare_run(stored_cells: list[dict], page_cells: list[dict]) -> list[str]:
    """Return the problems of a Run All in the page, judged against the stored notebook's cells.

    A problem: a code cell left unexecuted; an error output where the stored cell has none and is
    not tagged raises-exception; text on stderr where the stored cell has none; fewer figures or
    widgets shown than the stored cell has.
    """
    if len(stored_cells) != len(page_cells):
        return [f"the page shows {len(page_cells)} cells, the notebook has {len(stored_cells)}"]
    problems = []
    for index, (stored, shown) in enumerate(zip(stored_cells, page_cells)):
        cell = shown["json"]
        if stored["cell_type"] != "code":
            continue
        source = "".join(stored["source"]).strip()
        if not source:
            continue
        where = f"cell {index} ({source.splitlines()[0][:50]})"
        if cell.get("execution_count") is None:
            problems.append(f"{where}: not executed (prompt {shown['prompt']!r})")
            continue
        tags = stored.get("metadata", {}).get("tags", [])
        expected_error = bool(_outputs_of(stored, "error")) or "raises-exception" in tags
        for error in _outputs_of(cell, "error"):
            if not expected_error:
                problems.append(f"{where}: {error.get('ename')}: {error.get('evalue')}")
        stderr = "".join("".join(o.get("text", "")) for o in _outputs_of(cell, "stream", name="stderr"))
        if stderr.strip() and not _outputs_of(stored, "stream", name="stderr"):
            problems.append(f"{where}: unexpected stderr: {stderr.strip().splitlines()[0][:200]}")
        figures = len(_outputs_of(stored, mime="image/png"))
        if shown["images"] < figures:
            problems.append(f"{where}: shows {shown['images']} figure(s), the stored notebook has {figures}")
        widgets = len(_outputs_of(stored, mime="application/vnd.jupyter.widget-view+json"))
        if widgets and (shown["widgets"] == 0 or shown["widget_errors"]):
            problems.append(f"{where}: the widget (progress bar) did not render")
    return problems


def screenshot(page: Any, path: Path) -> None:
    """Save a screenshot of the notebook, scrolled to its first figure where it has one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("""() => {
      const img = document.querySelector('.jp-NotebookPanel .jp-OutputArea-output img');
      if (img) img.scrollIntoView({block: 'center'});
    }""")
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))
