"""Execute notebooks twice in full mode and compare their printed factors and verdicts.

    python tools/compare_runs.py notebooks/03_pytorch.ipynb [...]      # executes into build/runs/
    python tools/compare_runs.py --stored notebooks/*.ipynb            # stored outputs against one fresh run

Prints, per notebook, how many speed-up factors (numbers like 2.31x) agree within ±10 % and
every verdict line whose verdict word differs. Exits 1 when a verdict differs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
FACTOR = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x\b")
VERDICT = re.compile(r"^(?P<claim>.*?): (?P<word>faster|slower|about the same|within the noise)\b", re.M)


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


def factors(texts: list[str]) -> list[float]:
    """Every number printed with an x suffix, in order."""
    return [float(m.group(1)) for text in texts for m in FACTOR.finditer(text)]


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


def report(name: str, a: list[str], b: list[str]) -> bool:
    """Print the agreement of two runs' outputs; return True when every verdict agrees."""
    fa, fb = factors(a), factors(b)
    pairs = list(zip(fa, fb))
    close = sum(1 for x, y in pairs if y and abs(x / y - 1) <= 0.10)
    va, vb = verdicts(a), verdicts(b)
    differ = [(x, y) for x, y in zip(va, vb) if x[1] != y[1]]
    share = f"{close}/{len(pairs)} ({100 * close / len(pairs):.0f} %)" if pairs else "0/0"
    print(f"{name}: factors within ±10 %: {share}; verdicts: {len(va)}, differing: {len(differ)}"
          + ("" if len(fa) == len(fb) and len(va) == len(vb) else "  (the runs printed different counts)"))
    for x, y in differ:
        print(f"    {x[0]}: {x[1]} / {y[1]}")
    return not differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--stored", action="store_true", help="compare the stored outputs with one fresh run")
    args = parser.parse_args()
    ok = True
    for nb in args.notebooks:
        runs = ROOT / "build" / "runs"
        second = execute(nb, runs / f"{nb.stem}.b.ipynb")
        first = nb if args.stored else execute(nb, runs / f"{nb.stem}.a.ipynb")
        ok &= report(nb.stem, outputs(first), outputs(second))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
