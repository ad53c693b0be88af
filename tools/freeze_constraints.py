"""Rewrite constraints.txt from the environment: every installed package not pinned in requirements.txt.

A pin with an environment marker (an alternative for a platform where the frozen version has
no wheel, see README "Platforms") keeps its marker: the line whose marker holds here gets the
frozen version, the lines for other platforms stay as they are.
"""

import re
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
HEADER = ["# Every package that requirements.txt pulls in, pinned as tested (pip freeze).",
          "# Regenerate with `make constraints` after changing requirements.txt."]


def canonical(name: str) -> str:
    """Normalize a distribution name as pip compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pin_name(line: str) -> str:
    """Return the canonical name of a `name==version[; marker]` line."""
    return canonical(re.split(r"[=;<>!~ ]", line, maxsplit=1)[0])


def freeze(requirements: str, constraints: str, frozen: list[str]) -> list[str]:
    """Return the new constraints lines from the old files' text and `pip freeze` output."""
    direct = {pin_name(line) for line in requirements.splitlines()
              if "==" in line and not line.lstrip().startswith("#")}
    marked: dict[str, list[str]] = {}
    for line in constraints.splitlines():
        if ";" in line and "==" in line and not line.lstrip().startswith("#"):
            marked.setdefault(pin_name(line), []).append(line.strip())
    pins = []
    for line in frozen:
        if "==" not in line or pin_name(line) in direct:
            continue
        name = pin_name(line)
        if name not in marked:
            pins.append(line)
            continue
        here = [old for old in marked[name] if Requirement(old).marker.evaluate()]
        if not here:
            print(f"warning: no marker line of {name} in constraints.txt matches this platform; "
                  f"kept them and left out {line}", file=sys.stderr)
        pins += [f"{line}; {Requirement(old).marker}" if old in here else old for old in marked[name]]
    installed = {pin_name(line) for line in frozen if "==" in line}
    pins += [old for name, lines in marked.items() if name not in installed and name not in direct
             for old in lines]
    return HEADER + sorted(pins, key=str.lower)


def main() -> None:
    """Freeze the environment and write the transitive pins."""
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    path = ROOT / "constraints.txt"
    direct = (ROOT / "requirements.txt").read_text() + "\n" + (ROOT / "requirements-nodeps.txt").read_text()
    lines = freeze(direct, path.read_text(), frozen)
    path.write_text("\n".join(lines) + "\n")
    print(f"constraints.txt: {len(lines) - len(HEADER)} pins")


if __name__ == "__main__":
    main()
