"""A class on a real JupyterHub: hub/jupyterhub_config.py on 127.0.0.1, students in headless Chromium.

The hub (this environment's JupyterHub, the proxy from web/node_modules) starts with the
repository's configuration, plus a test-only layer: free ports, a state folder of its own, an
API token for the test standing in for the instructor, and window.jupyterapp exposed so that
tests/jupyterlab_driver.py can read the cells. Through the hub the test adds three students
(the hub creates their system users), logs two in on the hub's login page and has each Run All
of a notebook in its own copy, then checks the walls between them: the second student's own
kernel cannot list, read or write the first student's home, the second student's browser
cannot reach the first student's server, a wrong password and an account the instructor never
added are refused. Then the class's numbers: the instructor releases the notebook as an nbgrader
assignment to the hub's exchange, each student fetches it and hands in the copy they ran
(`nbgrader submit`, from their own kernel), the instructor collects, and tools/class_results.py
(`make class-results`) reports one record per student. A student's JupyterLab shows nbgrader's
Assignments and none of the instructor's tools. Afterwards the hub, the proxy and every student
process must be gone and the test's users and homes are removed. Runs as root (the hub creates
users); marked `hub`.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import assignments  # noqa: E402  (tools/assignments.py: generate, release, collect)
from jupyterlab_driver import (DIRECT, MISSING_CHROMIUM, NBGRADER_SHELL_JS, ROOT, block_remote, chromium, chromium_path,
                               compare_run, free_port, port_is_open, run_all_in_lab, start_logged,
                               wait_or_kill, wait_until_answering)

pytestmark = pytest.mark.hub
CONFIG = ROOT / "hub" / "jupyterhub_config.py"
PROXY = ROOT / "web" / "node_modules" / ".bin" / "configurable-http-proxy"
HUB = Path(sys.executable).parent / "jupyterhub"
COURSE = "hybridization"
# (student, notebook) for the two students who log in: both run the same quick notebook, which they
# then hand in through nbgrader's exchange.
RUNS = [("a", "02_symbolic.ipynb"), ("b", "02_symbolic.ipynb")]
ASSIGNMENT = "02_symbolic"
TIMEOUT = 300

# Runs in the second student's kernel: what happens when it touches the first student's home.
PROBE = """
import json as _json, os as _os, pathlib as _pathlib, stat as _stat
_home = _pathlib.Path({home!r})
_out = {{"uid": _os.getuid()}}
for _what, _try in [("list", lambda: _os.listdir(_home)),
                    ("read", lambda: (_home / {notebook!r}).read_bytes()),
                    ("write", lambda: (_home / "from_the_other_student.txt").write_text("x"))]:
    try:
        _try()
        _out[_what] = "allowed"
    except OSError as _error:
        _out[_what] = type(_error).__name__
_mine = _pathlib.Path.home() / "probe.txt"
_mine.write_text("mine")
_out["own_file_mode"] = oct(_stat.S_IMODE(_mine.stat().st_mode))
_mine.unlink()
print(_json.dumps(_out))
"""
# Runs in a student's kernel: fetch the released assignment, hand in the copy the student ran.
HAND_IN = """
import json as _json, pathlib as _pathlib, shutil as _shutil, subprocess as _subprocess
_home = _pathlib.Path.home()
_steps = {{}}
for _step, _args in [("fetch", ["nbgrader", "fetch_assignment", {assignment!r}])]:
    _r = _subprocess.run(_args, cwd=_home, capture_output=True, text=True)
    _steps[_step] = [_r.returncode, _r.stderr[-400:]]
_shutil.copy(_home / {course!r} / ({assignment!r} + ".ipynb"), _home / {assignment!r} / ({assignment!r} + ".ipynb"))
_r = _subprocess.run(["nbgrader", "submit", {assignment!r}], cwd=_home, capture_output=True, text=True)
_steps["submit"] = [_r.returncode, _r.stderr[-400:]]
print(_json.dumps(_steps))
"""
# Sends code to the kernel of the notebook open in the page; returns what it printed (or its error).
EXECUTE_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  const out = [];
  future.onIOPub = msg => {
    if (msg.header.msg_type === 'stream') out.push(msg.content.text);
    if (msg.header.msg_type === 'error') out.push(msg.content.ename + ': ' + msg.content.evalue);
  };
  await future.done;
  return out.join('');
}"""


class Hub:
    """A JupyterHub of this repository's configuration on 127.0.0.1, started for the test."""

    def __init__(self, state: Path, admin: str, exchange: Path) -> None:
        """Prepare a hub whose state (database, secret, logs, test config) lives in state."""
        self.state, self.admin, self.exchange = state, admin, exchange
        self.port, self.hub_port, self.proxy_port = free_port(), free_port(), free_port()
        self.token = secrets.token_hex(32)
        self.log = state / "jupyterhub.log"
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        """The hub's public URL."""
        return f"http://127.0.0.1:{self.port}"

    def api(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        """Call the hub's REST API with the test's admin token; return (status, decoded JSON or None)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base}/hub/api/{path}", data=data, method=method,
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with DIRECT.open(request, timeout=60) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        try:
            return status, (json.loads(text) if text else None)
        except json.JSONDecodeError:
            return status, text.decode(errors="replace")

    def start(self, timeout: float = 120) -> None:
        """Write the test layer over hub/jupyterhub_config.py, start the hub and wait for its API."""
        config = self.state / "test_config.py"
        config.write_text(f"""load_subconfig({str(CONFIG)!r})
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.proxy_port}"
c.JupyterHub.services = [{{"name": "class-test", "api_token": {self.token!r}}}]
c.JupyterHub.load_roles = [{{"name": "class-test", "services": ["class-test"],
                             "scopes": ["admin:users", "admin:servers"]}}]
c.Spawner.args = ["--LabApp.expose_app_in_browser=True"]
""")
        env = dict(os.environ, HYBRID_HUB_STATE=str(self.state), HYBRID_HUB_ADMIN=self.admin,
                   HYBRID_NBGRADER_EXCHANGE=str(self.exchange),
                   HYBRID_HUB_IP="127.0.0.1", HYBRID_HUB_PORT=str(self.port),
                   HYBRID_QUICK=os.environ.get("HYBRID_QUICK", "1"))
        env.pop("TORCHINDUCTOR_CACHE_DIR", None)  # root's cache: each student gets their own
        self.process = start_logged([str(HUB), "-f", str(config)], self.log, env, cwd=self.state)
        # The API's root answers without a token.
        wait_until_answering(self.process, lambda: self.api("GET", "")[0] == 200, "JupyterHub", self.log_tail, timeout)

    def log_tail(self, lines: int = 40) -> str:
        """Return the end of the hub's log."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) if self.log.exists() else ""

    def wait_ready(self, name: str, timeout: float = 240) -> None:
        """Wait until the student's server is up (a spawn takes several seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, user = self.api("GET", f"users/{name}")
            if status == 200 and user["servers"].get("", {}).get("ready"):
                return
            time.sleep(0.5)
        raise TimeoutError(f"{name}'s server not ready within {timeout} s:\n{self.log_tail()}")

    def stop(self, timeout: float = 60) -> None:
        """Stop the hub (it stops the students' servers and the proxy); kill its group if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        wait_or_kill(self.process, timeout)


class StudentLab:
    """What run_all_in_lab needs of a server: URLs, here of a student's server behind the hub."""

    def __init__(self, hub: Hub, name: str) -> None:
        self.hub, self.name = hub, name

    def url(self, path: str) -> str:
        """Return the URL of a JupyterLab path on this student's server (the login cookie authenticates)."""
        return f"{self.hub.base}/user/{self.name}/{path.lstrip('/')}"


def log_in(context, hub: Hub, name: str, password: str):
    """Open the hub's login page in a new page of context, submit the form; return the page."""
    page = context.new_page()
    page.goto(f"{hub.base}/hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    with page.expect_navigation():
        page.click("#login_submit")
    return page


def add_system_user(name: str, password: str) -> None:
    """Create a system user with a private home and set its password (the instructor's chpasswd)."""
    subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--key", "HOME_MODE=0700", name],
                   check=True, capture_output=True)
    set_password(name, password)


def set_password(name: str, password: str) -> None:
    """Set a system user's password as the instructor would: chpasswd."""
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True, capture_output=True)


def remove_users(names: list[str]) -> None:
    """Kill what the test's users still run, delete them with their homes and their files in /tmp."""
    for name in names:
        try:
            uid = pwd.getpwnam(name).pw_uid
        except KeyError:
            continue
        for process in psutil.process_iter(["uids"]):
            if process.info["uids"] and process.info["uids"].real == uid:
                process.kill()
        subprocess.run(["userdel", "--remove", name], capture_output=True)
        for entry in Path("/tmp").iterdir():
            try:
                owned = entry.lstat().st_uid == uid
            except OSError:
                continue
            if owned and entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            elif owned:
                entry.unlink()


def blocked_folders() -> list[str]:
    """The folders on the way to this environment's Python and to the repository that others cannot enter."""
    paths = [os.path.realpath(sys.executable), sys.base_prefix, sys.prefix, str(CONFIG)]
    folders = dict.fromkeys(str(f) for p in paths for f in reversed(Path(p).resolve().parents))
    return [f for f in folders if not os.stat(f).st_mode & 0o001]


def reachable_for_the_test() -> dict[str, int]:
    """Check that the hub refuses an unreachable Python, then open the way (o+x); return the old modes."""
    blocked = blocked_folders()
    if blocked:
        load = ("import sys, traitlets.config as t; c = t.Config(); p = sys.argv[1]; "
                "exec(compile(open(p).read(), p, 'exec'), {'get_config': lambda: c, '__file__': p})")
        refused = subprocess.run([sys.executable, "-c", load, str(CONFIG)], capture_output=True, text=True,
                                 timeout=120, env=dict(os.environ, HYBRID_HUB_STATE=tempfile.mkdtemp()))
        assert refused.returncode != 0 and "Students could not start" in refused.stderr + refused.stdout, \
            refused.stderr[-1000:]
    modes = {folder: stat.S_IMODE(os.stat(folder).st_mode) for folder in blocked}
    for folder, mode in modes.items():
        os.chmod(folder, mode | 0o001)
    return modes


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """Yield (hub, users, browser); afterwards stop everything and remove the test's users."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("the class test runs as root: the hub creates system users and starts each "
                    "student's server as that user (CI runs as root)")
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    if not PROXY.exists():
        pytest.skip("configurable-http-proxy is not installed: npm ci --prefix web (make test does it where npm exists)")
    if shutil.which("useradd") is None or shutil.which("chpasswd") is None:
        pytest.skip("useradd and chpasswd (Linux) are needed to create the students' accounts")
    tag = secrets.token_hex(3)
    users = {"admin": f"hbt{tag}i", "a": f"hbt{tag}a", "b": f"hbt{tag}b", "c": f"hbt{tag}c",
             "outsider": f"hbt{tag}x"}
    taken = [name for name in users.values() if _exists(name)]
    assert not taken, f"test user names already exist: {taken}"
    state = tmp_path_factory.mktemp("hub")
    state.chmod(0o700)
    # nbgrader's exchange: outside the private state folder, where students can write (the hub makes it 777).
    exchange = Path(tempfile.mkdtemp(prefix=f"hbt{tag}-exchange-"))
    server = Hub(state, users["admin"], exchange)
    started = time.monotonic()
    # The students run this environment's Python. Where it lies under a folder they cannot enter
    # (pyenv's Python under /root, as on CI), the hub refuses to start and says so (checked here
    # first); the test then lets them pass through (o+x, not read) for its duration only.
    opened = reachable_for_the_test()
    try:
        server.start()
        with chromium() as browser:
            yield server, users, browser
    finally:
        for key in ("a", "b", "c"):
            try:
                server.api("DELETE", f"users/{users[key]}/server")
            except Exception:  # noqa: BLE001 (cleanup goes on whatever the hub answers)
                pass
        hub_tree = _tree(server.process)
        server.stop()
        uids = {pwd.getpwnam(name).pw_uid for name in users.values() if _exists(name)}
        student_procs = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real in uids]
        _, left = psutil.wait_procs(hub_tree + student_procs, timeout=20)
        remove_users(list(users.values()))
        shutil.rmtree(exchange, ignore_errors=True)
        for folder, mode in opened.items():
            os.chmod(folder, mode)
        print(f"class test: {time.monotonic() - started:.0f} s from starting the hub to removing its users")
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"
    for port in (server.port, server.hub_port, server.proxy_port):
        assert not port_is_open(port), f"port {port} still open after the hub stopped"
    assert not [name for name in users.values() if _exists(name)], "test users not removed"


def _exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def _tree(process: subprocess.Popen | None) -> list[psutil.Process]:
    """The process and all its descendants (the proxy, the students' servers and kernels)."""
    try:
        root = psutil.Process(process.pid)
        return [root, *root.children(recursive=True)]
    except (psutil.NoSuchProcess, AttributeError):
        return []


def test_a_class_on_the_hub(hub):
    server, users, browser = hub
    passwords = {key: secrets.token_urlsafe(12) for key in ("a", "b", "c", "outsider")}

    # The instructor (the admin user named in the config) adds three students; the hub creates
    # their system users with private homes; the instructor sets their passwords.
    status, admin = server.api("GET", f"users/{users['admin']}")
    assert status == 200 and admin["admin"], f"the instructor is not an admin: {status} {admin}"
    status, created = server.api("POST", "users", {"usernames": [users[k] for k in ("a", "b", "c")]})
    assert status == 201, f"adding students failed: {status} {created}\n{server.log_tail()}"
    for key in ("a", "b", "c"):
        home = Path(pwd.getpwnam(users[key]).pw_dir)
        assert stat.S_IMODE(home.stat().st_mode) == 0o700, f"{home} is not private"
        set_password(users[key], passwords[key])
    # A system account with a password, never added to the hub by the instructor.
    add_system_user(users["outsider"], passwords["outsider"])

    contexts = {}
    for key in ("a", "b", "c", "outsider"):
        contexts[key] = browser.new_context(viewport={"width": 1280, "height": 900})
    attempted = [block_remote(context) for context in contexts.values()]

    # A wrong password, and a correct one for an account the instructor never added: refused.
    for key, password in (("c", passwords["c"] + "x"), ("outsider", passwords["outsider"])):
        page = log_in(contexts[key], server, users[key], password)
        assert "/hub/login" in page.url, f"{key} got past the login page: {page.url}"
        assert "Invalid username or password" in page.content()
        assert not [c for c in contexts[key].cookies() if c["name"] == "jupyterhub-hub-login"]
        page.close()
    status, student_c = server.api("GET", f"users/{users['c']}")
    assert status == 200 and not student_c["servers"], f"a refused login started a server: {student_c}"
    assert server.api("GET", f"users/{users['outsider']}")[0] == 404, "the outsider became a hub user"
    assert not (Path(pwd.getpwnam(users["c"]).pw_dir) / COURSE).exists()

    # The instructor releases the notebook as an nbgrader assignment to the hub's exchange.
    course = server.state / "course"
    assignments.generate([ROOT / "notebooks" / f"{ASSIGNMENT}.ipynb"], course)
    assignments.exchange_step("release", ASSIGNMENT, course, server.exchange)

    # Two students log in on the login page and Run All of a notebook in their own copy.
    pages = {}
    for key, notebook in RUNS:
        page = log_in(contexts[key], server, users[key], passwords[key])
        server.wait_ready(users[key])
        copy = Path(pwd.getpwnam(users[key]).pw_dir) / COURSE / notebook
        assert copy.stat().st_uid == pwd.getpwnam(users[key]).pw_uid, f"{copy} is not the student's"
        result = run_all_in_lab(page, StudentLab(server, users[key]), f"{COURSE}/{notebook}", TIMEOUT)
        seconds = result["seconds"]
        print(f"student {key}: {notebook} opened in {seconds['open']:.1f} s, Run All took {seconds['run']:.1f} s")
        stored = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
        problems = compare_run(stored, result["cells"])
        assert not problems, f"student {key}, {notebook}:\n" + "\n".join(problems)
        pages[key] = page
        # A student's JupyterLab: nbgrader's Assignments list, none of the instructor's tools.
        shell = page.evaluate(NBGRADER_SHELL_JS)
        assert shell["commands"] == ["nbgrader:open-assignment-list"], shell
        assert not [t for t in shell["sidebar"] if "Create Assignment" in t], shell
        # The student saves the run and hands it in through nbgrader's exchange, from their own kernel.
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_timeout(1000)
        handed = json.loads(page.evaluate(EXECUTE_JS, HAND_IN.format(assignment=ASSIGNMENT, course=COURSE))
                            .strip().splitlines()[-1])
        assert handed == {"fetch": [0, handed["fetch"][1]], "submit": [0, handed["submit"][1]]}, handed

    # Student b's own kernel tries to list, read and write student a's home: the system refuses.
    home_a = pwd.getpwnam(users["a"]).pw_dir
    printed = pages["b"].evaluate(EXECUTE_JS, PROBE.format(home=home_a, notebook=f"{COURSE}/{RUNS[0][1]}"))
    probe = json.loads(printed.strip().splitlines()[-1])
    print(f"student b's kernel against student a's home: {probe}")
    assert probe["uid"] == pwd.getpwnam(users["b"]).pw_uid, "student b's kernel does not run as student b"
    assert {probe[k] for k in ("list", "read", "write")} == {"PermissionError"}, probe
    assert probe["own_file_mode"] == "0o600", "files a student creates are readable by others"
    assert not (Path(home_a) / "from_the_other_student.txt").exists()

    # Student b's browser cannot reach student a's server through the hub either.
    answer = contexts["b"].request.get(f"{server.base}/user/{users['a']}/api/contents/{COURSE}")
    assert not (answer.ok and "application/json" in answer.headers.get("content-type", "")), \
        f"student b read student a's files through the hub: {answer.status}"
    print(f"student b asking for student a's server: HTTP {answer.status}")

    # The instructor collects what the two students handed in; the class report counts one record each.
    assignments.exchange_step("collect", ASSIGNMENT, course, server.exchange)
    submitted = course / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == sorted(users[k] for k, _ in RUNS), list(submitted.iterdir())
    report = subprocess.run([sys.executable, str(ROOT / "tools" / "class_results.py"), str(submitted),
                             "--out", str(server.state / "class-results")], capture_output=True, text=True, timeout=300)
    print(report.stdout)
    assert report.returncode == 0, report.stderr[-2000:]
    assert f"{len(RUNS)} records counted from {len(RUNS)} notebooks" in report.stdout, report.stdout
    page_text = (server.state / "class-results" / "index.html").read_text(encoding="utf-8")
    assert all(users[k] in page_text for k, _ in RUNS), "the report names both students"

    for context in contexts.values():
        context.close()
    requested = [url for urls in attempted for url in urls]
    assert not requested, f"pages asked for remote resources: {requested[:5]}"
