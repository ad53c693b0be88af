"""Execute notebooks twice in full mode and compare their printed factors and verdicts.

    python tools/compare_runs.py notebooks/03_pytorch.ipynb [...]      # executes into build/runs/
    python tools/compare_runs.py --stored notebooks/*.ipynb            # stored outputs against one fresh run

Prints, per notebook and in total, how many speed-up factors (numbers like 2.31x) agree within
±10 % and every verdict line whose verdict word differs. Exits 1 when a verdict differs.
A verdict's threshold ("within 1.20x") is not a measurement and is not counted.  Factors that
are not speed-ups (distances below the roofline on GFLOP/s lines, occupancy "of one device")
are counted apart.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional

import nbformat

ROOT = Path(__file__).resolve().parent.parent
FACTOR = re.compile(r"(?<![\w.])(?<!\bthan )(?<!\bat )(\d+(?:\.\d+)?)x\b")  # thresholds are not factors
NOT_SPEED_UPS = ("GFLOP/s", "of one device")
VERDICT = re.compile(r"^(?P<claim>.*?): (?P<word>(?:faster|slower|larger|smaller|shorter|longer) by more than [\d.]+x|less than [\d.]+x apart"
                     r"|not resolved at [\d.]+x(?: \(fewer than 6 rounds\))?)", re.M)


def outputs(path: Path) -> list[str]:
    """The text of every stream and text/plain output, cell by cell."""
    texts = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if "text" in out:
                texts.append(out["text"])
            elif "text/plain" in out.get("data", {}):
                texts.append(out["data"]["text/plain"])
    return texts


def factors(texts: list[str], speed_ups: bool = True) -> list[float]:
    """Every measured number printed with an x suffix, in order: the speed-ups, or the others."""
    lines = [line for text in texts for line in text.splitlines()]
    return [float(m.group(1)) for line in lines
            if speed_ups != any(k in line for k in NOT_SPEED_UPS) for m in FACTOR.finditer(line)]


def verdicts(texts: list[str]) -> list[tuple[str, str]]:
    """Every (claim, verdict word) line, in order."""
    return [(m.group("claim").strip(), m.group("word")) for text in texts for m in VERDICT.finditer(text)]


def execute(notebook: Path, out: Path) -> Path:
    """Execute a copy of the notebook in full mode; return the executed copy."""
    out.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "HYBRID_QUICK": ""}
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                    "--ExecutePreprocessor.timeout=1800", "--output", str(out.resolve()), str(notebook)],
                   check=True, env=env, cwd=ROOT, capture_output=True)
    return out


def agreement(a: list[float], b: list[float]) -> tuple[int, int]:
    """How many pairs of factors agree within ±10 %, out of how many pairs."""
    pairs = list(zip(a, b))
    return sum(1 for x, y in pairs if y and abs(x / y - 1) <= 0.10), len(pairs)


def share(counts: tuple[int, int]) -> str:
    """'close/total (percent %)'."""
    close, total = counts
    return f"{close}/{total} ({100 * close / total:.0f} %)" if total else "0/0"


def report(name: str, a: list[str], b: list[str], totals: Optional[dict] = None) -> bool:
    """Print the agreement of two runs' outputs; return True when every verdict agrees."""
    speed, other = agreement(factors(a), factors(b)), agreement(factors(a, False), factors(b, False))
    va, vb = verdicts(a), verdicts(b)
    differ = [(x, y) for x, y in zip(va, vb) if x[1] != y[1]]
    same_counts = len(factors(a)) == len(factors(b)) and len(va) == len(vb)
    print(f"{name}: factors within ±10 %: {share(speed)}"
          + (f"; other factors: {share(other)}" if other[1] else "")
          + f"; verdicts: {len(va)}, differing: {len(differ)}"
          + ("" if same_counts else "  (the runs printed different counts)"))
    for x, y in differ:
        print(f"    {x[0]}: {x[1]} / {y[1]}")
    if totals is not None:
        for key, value in (("speed", speed), ("other", other), ("verdicts", (len(va) - len(differ), len(va)))):
            totals[key] = tuple(t + v for t, v in zip(totals.get(key, (0, 0)), value))
    return not differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--stored", action="store_true", help="compare the stored outputs with one fresh run")
    args = parser.parse_args()
    ok, totals = True, {}
    for nb in args.notebooks:
        runs = ROOT / "build" / "runs"
        second = execute(nb, runs / f"{nb.stem}.b.ipynb")
        first = nb if args.stored else execute(nb, runs / f"{nb.stem}.a.ipynb")
        ok &= report(nb.stem, outputs(first), outputs(second), totals)
    print(f"all: speed-up factors within ±10 %: {share(totals['speed'])}; other factors: "
          f"{share(totals['other'])}; verdicts the same: {share(totals['verdicts'])}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
