# JupyterHub for a class on one machine: `make hub` (as root) runs
#   .venv/bin/jupyterhub -f hub/jupyterhub_config.py
# Every setting an instructor may want to change is below, with what it does. JupyterHub 6.1.1.
#
# Accounts: each student is a system user of this machine (PAMAuthenticator, a LocalAuthenticator),
# whose single-user JupyterLab runs as that user (LocalProcessSpawner), so the operating system
# keeps students' files apart (home folders mode 700). The instructor is the hub's admin and adds
# students on the admin page (/hub/admin, "Add Users") or through the REST API; the hub then
# creates the system user, and the instructor sets its password (`chpasswd`, see README). Nobody
# can sign up: a name the instructor has not added is refused even with a correct password.
# Why not jupyterhub-nativeauthenticator: it keeps its own password database and creates no
# system users, so with LocalProcessSpawner the accounts would have to be made twice; PAM uses
# the machine's own accounts and needs no extra package.
#
# Environment variables (all optional):
#   HYBRID_HUB_ADMIN  the instructor's user name (default: instructor)
#   HYBRID_HUB_STATE  folder for the hub's database, cookie secret and proxy pid (default: build/hub)
#   HYBRID_HUB_IP     address to listen on (default: 127.0.0.1, this machine only; see README
#                     before exposing the hub: put TLS in front or set ssl_cert/ssl_key below)
#   HYBRID_HUB_PORT   port of the hub's public proxy (default: 8000)
#   HYBRID_HUB_COURSE the folder each student gets a copy of (default: notebooks/, the instructor
#                     edition; build/handout/notebooks after `make handout` has no solutions)
#   HYBRID_NBGRADER_EXCHANGE  nbgrader's exchange folder, where the instructor releases assignments
#                     and students submit them (default: /srv/nbgrader/exchange; created, mode 777)
import os
import pwd
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (injected by JupyterHub)


def blocked_folders(*paths: str) -> list[str]:
    """Return the folders on the way to `paths` that other users cannot enter (no o+x)."""
    blocked = []
    for path in paths:
        for folder in [*reversed(Path(path).resolve().parents)]:
            if not os.stat(folder).st_mode & 0o001 and str(folder) not in blocked:
                blocked.append(str(folder))
    return blocked


# Each student's server runs as that student with this environment's Python: the student must be
# able to reach it. A Python under /root (pyenv's default for root) is out of their reach.
BLOCKED = blocked_folders(os.path.realpath(sys.executable), sys.base_prefix, sys.prefix, __file__)
if BLOCKED:
    sys.exit(f"Students could not start this environment's Python ({os.path.realpath(sys.executable)}): "
             f"other users cannot enter {', '.join(BLOCKED)}. Build the environment from a Python they "
             f"can run, e.g. `make hub PYTHON=/usr/bin/python3.13 VENV=/srv/hybridize/venv` with the clone "
             f"outside /root, or allow them to pass through (chmod o+x {' '.join(BLOCKED)}).")

ROOT = Path(__file__).resolve().parent.parent          # this repository
BIN = Path(sys.executable).parent                      # the pinned environment: .venv/bin
STATE = Path(os.environ.get("HYBRID_HUB_STATE") or ROOT / "build" / "hub").resolve()
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
ADMIN = os.environ.get("HYBRID_HUB_ADMIN") or "instructor"
COURSE_DIR = "hybridization"                           # each student's copy: ~/hybridization
COURSE = Path(os.environ.get("HYBRID_HUB_COURSE") or ROOT / "notebooks").resolve()
EXCHANGE = Path(os.environ.get("HYBRID_NBGRADER_EXCHANGE") or "/srv/nbgrader/exchange")
# Every user's Jupyter reads jupyter/hub/ (nbgrader's course and exchange); students also read
# jupyter/student/, which turns nbgrader's instructor tools off (formgrader, course list, Create
# Assignment), so a student's JupyterLab shows the Assignments list and nothing an instructor uses.
HUB_CONFIG = ROOT / "jupyter" / "hub"
STUDENT_CONFIG = ROOT / "jupyter" / "student"
# nbgrader's exchange must exist and be writable by everyone (nbgrader's documentation).
EXCHANGE.mkdir(parents=True, exist_ok=True)
os.chmod(EXCHANGE, 0o777)

# --- Network: this machine only unless told otherwise -----------------------------------------
c.JupyterHub.ip = os.environ.get("HYBRID_HUB_IP") or "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("HYBRID_HUB_PORT") or 8000)
c.JupyterHub.hub_ip = "127.0.0.1"                     # the hub's internal API: never exposed
# For a class over the network, either terminate TLS in a reverse proxy (nginx, Caddy) on 443
# and keep the hub on 127.0.0.1, or give the hub a certificate here (and HYBRID_HUB_IP=0.0.0.0):
# c.JupyterHub.ssl_cert = "/etc/letsencrypt/live/HOST/fullchain.pem"
# c.JupyterHub.ssl_key = "/etc/letsencrypt/live/HOST/privkey.pem"

# --- The proxy: configurable-http-proxy pinned in web/package.json (npm ci --prefix web) --------
c.ConfigurableHTTPProxy.command = [str(ROOT / "web" / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# --- The hub's own state (keep this folder private: it holds the cookie secret) -----------------
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True                   # stopping the hub stops every student's server

# --- Accounts -----------------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.admin_users = {ADMIN}
# Only users the instructor has added (admin page or API) may log in; no open sign-up.
c.Authenticator.allow_all = False
c.Authenticator.allow_existing_users = True
# Adding a user on the admin page creates the system user, with a private home folder.
c.LocalAuthenticator.create_system_users = True
c.LocalAuthenticator.add_user_cmd = ["useradd", "--create-home", "--shell", "/bin/bash",
                                     "--key", "HOME_MODE=0700"]

# --- Each student's JupyterLab: a process of the pinned environment, run as the student ---------
c.JupyterHub.spawner_class = "localprocess"
# umask 077: files a student creates are theirs alone.
c.Spawner.cmd = ["/bin/sh", "-c", 'umask 077 && exec "$0" "$@"', str(BIN / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = f"/lab/tree/{COURSE_DIR}"
c.Spawner.environment = {"PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin",
                         "HYBRID_NBGRADER_EXCHANGE": str(EXCHANGE)}
# Quick mode and thread settings pass through from the hub's environment when set.
c.Spawner.env_keep = ["LANG", "LC_ALL", "HYBRID_QUICK", "OMP_NUM_THREADS", "ATEN_CPU_CAPABILITY",
                      "TORCHINDUCTOR_COMPILE_THREADS", "MKL_ENABLE_INSTRUCTIONS"]
c.Spawner.start_timeout = 180                         # a busy machine starts servers slowly
c.Spawner.http_timeout = 120


def copy_course(spawner) -> None:
    """Before a student's server starts: make the home folder private and copy in the notebooks once."""
    # The instructor (an admin) keeps nbgrader's tools; everyone else gets the student's view.
    folders = [HUB_CONFIG] if spawner.user.admin else [STUDENT_CONFIG, HUB_CONFIG]
    spawner.environment = dict(spawner.environment, JUPYTER_CONFIG_PATH=os.pathsep.join(map(str, folders)))
    account = pwd.getpwnam(spawner.user.name)
    home = Path(account.pw_dir)
    os.chmod(home, 0o700)
    target = home / COURSE_DIR
    if target.exists() or target.is_symlink():
        return                                        # the student's own copy, kept as it is
    shutil.copytree(COURSE, target, symlinks=False,
                    ignore=shutil.ignore_patterns("scratch", ".ipynb_checkpoints", "my_mlp*"))
    for path in [target, *target.rglob("*")]:
        os.chown(path, account.pw_uid, account.pw_gid, follow_symlinks=False)
        os.chmod(path, 0o700 if path.is_dir() else 0o600)


c.Spawner.pre_spawn_hook = copy_course
