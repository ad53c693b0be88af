"""How many students can one machine serve: N students run the same notebook at once.

    python tools/hub_capacity.py notebooks/01_imperative.ipynb 1 4 8 [--quick]

Each student is one kernel executing the notebook top to bottom with nbclient, as Run All in a
student's JupyterLab does (the hub and each student's server add their own memory, measured
once here: an idle JupyterLab server). For each class size N the tool starts N students at
once and prints a Markdown row: the wall time of the slowest student, the median, and the peak
resident memory of one student's kernel (largest of the N). Full mode by default (what a
student gets); --quick sets HYBRID_QUICK=1.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
STUDENT = """
import sys, time, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
start = time.perf_counter()
NotebookClient(nb, timeout=3600, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}}).execute()
print(f"{time.perf_counter() - start:.1f}")
"""


def tree_rss(process: psutil.Process) -> int:
    """Resident memory of a process and its children (the kernel), in bytes."""
    total = 0
    for p in [process, *process.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def run_class(notebook: Path, students: int, env: dict) -> tuple[list[float], int, int]:
    """Start `students` executions of the notebook at once; return wall times, peak memory of one kernel and of all."""
    folders = [tempfile.mkdtemp(prefix="student") for _ in range(students)]
    procs = [subprocess.Popen([sys.executable, "-c", STUDENT, str(notebook), folder], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for folder in folders]
    handles = [psutil.Process(p.pid) for p in procs]
    peak = total = 0
    while any(p.poll() is None for p in procs):
        now = 0
        for h in handles:
            try:
                mine = sum(k.memory_info().rss for k in h.children(recursive=True))
            except psutil.NoSuchProcess:
                continue
            peak, now = max(peak, mine), now + mine
        total = max(total, now)
        time.sleep(0.5)
    times = []
    for p in procs:
        out = p.stdout.read().strip()
        if p.returncode != 0 or not out:
            raise RuntimeError(f"a student's run failed (exit {p.returncode})")
        times.append(float(out.splitlines()[-1]))
    return times, peak, total


def idle_server_rss(env: dict) -> int:
    """Resident memory of an idle JupyterLab server, 15 s after its start."""
    server = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--port=0", "--ip=127.0.0.1",
                               "--ServerApp.token=capacity", "--allow-root", f"--ServerApp.root_dir={ROOT / 'notebooks'}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(15)
        return tree_rss(psutil.Process(server.pid))
    finally:
        server.terminate()
        server.wait(30)


def main(argv: list[str] | None = None) -> None:
    """Measure each class size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if not args.notebook.is_file():
        parser.error(f"notebook: {args.notebook} is not a file")
    if any(n < 1 for n in args.sizes):
        parser.error("sizes must be 1 or more")
    env = dict(os.environ, HYBRID_QUICK="1" if args.quick else "", TORCHINDUCTOR_COMPILE_THREADS="1")
    print(f"idle JupyterLab server: {idle_server_rss(env) / 2**20:.0f} MiB")
    print("| notebook | students at once | slowest | median | peak memory of one kernel | of all kernels |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        times, peak, total = run_class(args.notebook.resolve(), n, env)
        print(f"| {args.notebook.stem} | {n} | {max(times):.0f} s | {statistics.median(times):.0f} s "
              f"| {peak / 2**20:.0f} MiB | {total / 2**30:.1f} GiB |", flush=True)


if __name__ == "__main__":
    main()
