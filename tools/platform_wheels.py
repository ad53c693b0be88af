"""Which pinned packages have a wheel for Python 3.11, 3.12 and 3.13 on each platform of the README's table.

    python tools/platform_wheels.py                    # the direct pins of requirements.txt
    python tools/platform_wheels.py constraints.txt    # every pin of another file

It reads each package's file list from PyPI's JSON simple index (PEP 691, what pip reads),
downloads no wheel, and prints a Markdown table: "yes" when a wheel's tags match the platform
(with the oldest macOS it accepts), "sdist" when only a source archive exists, "no" otherwise;
a cell names the Pythons where they differ ("3.11, 3.12: yes; 3.13: no").
Markers in the pin file are ignored here: the table says where a wheel exists, the markers
say where it is installed.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path
from typing import Iterable

from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parent.parent
INDEX = "https://pypi.org/simple/{name}/"
PYTHON = (3, 11)
PYTHONS = ((3, 11), (3, 12), (3, 13))


def manylinux(arch: str, newest_glibc_minor: int = 39) -> list[str]:
    """Return the manylinux platform tags a glibc-2.x Linux on `arch` accepts, newest first."""
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(newest_glibc_minor, 4, -1)]
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    return tags + [f"{alias}_{arch}" for minor, alias in legacy.items()
                   if arch in ("x86_64", "i686") or alias == "manylinux2014"]


# Platform name (as in the README's table) -> platform tags its pip accepts.
PLATFORMS: dict[str, list[str]] = {
    "Linux x86-64": manylinux("x86_64"),
    "Linux aarch64": manylinux("aarch64"),
    "macOS Apple silicon": list(mac_platforms((15, 0), "arm64")),
    "macOS Intel": list(mac_platforms((15, 0), "x86_64")),
    "Windows x86-64": ["win_amd64"],
}


def supported_tags(platforms: list[str], python: tuple[int, int] = PYTHON) -> set[Tag]:
    """Return every wheel tag CPython `python` accepts on these platform tags."""
    return set(cpython_tags(python, platforms=platforms)) | set(
        compatible_tags(python, f"cp{python[0]}{python[1]}", platforms))


def pins(path: Path) -> list[tuple[str, str]]:
    """Return (name, version) for each `name==version` line of a pin file (markers ignored)."""
    found = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)", line)
        if match:
            found.append((match.group(1), match.group(2)))
    return found


def availability(filenames: Iterable[str], version: str, platform_tags: list[str],
                 python: tuple[int, int] = PYTHON) -> str:
    """Say whether one of `filenames` (of release `version`) installs on the platform with `python`."""
    tags = supported_tags(platform_tags, python)
    macos: list[tuple[int, int]] = []
    has_sdist = False
    for filename in filenames:
        if not filename.endswith(".whl"):
            has_sdist |= filename.endswith((".tar.gz", ".zip")) and f"-{version}." in filename
            continue
        try:
            _, wheel_version, _, wheel_tags = parse_wheel_filename(filename)
        except InvalidWheelFilename:
            continue
        if str(wheel_version) != version and wheel_version.public != version:
            continue
        matching = wheel_tags & tags
        if not matching:
            continue
        versions = [tuple(int(p) for p in re.match(r"macosx_(\d+)_(\d+)_", t.platform).groups())
                    for t in matching if t.platform.startswith("macosx_")]
        if not versions:
            return "yes"
        macos.append(min(versions))
    if macos:
        major, minor = min(macos)
        return "yes" if (major, minor) <= (11, 0) else f"yes (macOS {major}{'.' + str(minor) if minor else ''}+)"
    return "sdist" if has_sdist else "no"


def files(name: str) -> list[str]:
    """Return the file names PyPI lists for a package."""
    request = urllib.request.Request(INDEX.format(name=canonicalize_name(name)),
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return [f["filename"] for f in json.load(response)["files"]]


def across_pythons(filenames: list[str], version: str, platform_tags: list[str]) -> str:
    """Return one cell: the availability, or per Python where the Pythons differ."""
    found = {python: availability(filenames, version, platform_tags, python) for python in PYTHONS}
    if len(set(found.values())) == 1:
        return next(iter(found.values()))
    groups: dict[str, list[str]] = {}
    for python, answer in found.items():
        groups.setdefault(answer, []).append(f"{python[0]}.{python[1]}")
    return "; ".join(f"{', '.join(pythons)}: {answer}" for answer, pythons in groups.items())


def table(pinned: list[tuple[str, str]]) -> str:
    """Return the Markdown table for these pins."""
    lines = ["| package | " + " | ".join(PLATFORMS) + " |",
             "|---|" + "---|" * len(PLATFORMS)]
    for name, version in pinned:
        names = files(name)
        cells = [across_pythons(names, version, tags) for tags in PLATFORMS.values()]
        lines.append(f"| {name} {version} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Print the table for requirements.txt or the pin file given."""
    paths = [Path(argv[0])] if argv else [ROOT / "requirements.txt", ROOT / "requirements-nodeps.txt"]
    print(table([pin for path in paths for pin in pins(path)]))


if __name__ == "__main__":
    main(sys.argv[1:])
