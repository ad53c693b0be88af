"""Rewrite constraints.txt from the environment: every installed package not pinned in requirements.txt."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def canonical(name: str) -> str:
    """Normalize a distribution name as pip compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def main() -> None:
    """Freeze the environment and write the transitive pins."""
    direct = {canonical(line.split("==")[0]) for line in (ROOT / "requirements.txt").read_text().splitlines()
              if "==" in line and not line.startswith("#")}
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    pins = sorted((line for line in frozen if "==" in line and canonical(line.split("==")[0]) not in direct),
                  key=str.lower)
    header = ["# Every package that requirements.txt pulls in, pinned as tested (pip freeze).",
              "# Regenerate with `make constraints` after changing requirements.txt."]
    (ROOT / "constraints.txt").write_text("\n".join(header + pins) + "\n")
    print(f"constraints.txt: {len(pins)} pins")


if __name__ == "__main__":
    main()
