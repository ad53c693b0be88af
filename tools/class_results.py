"""The class's own numbers: every student's executed notebook becomes one data set for the instructor.

    python tools/class_results.py PATH... [--out build/class-results]        # make class-results

PATH is a folder or a notebook: nbgrader's course folder or its `submitted/` folder
(submitted/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb, with nbgrader's timestamp.txt), or any folder of
`.ipynb` files that students handed in (the student is then the sub-folder a notebook sits in,
or the file's name when it sits at the top). Each notebook's Summary cell embeds a record of its
run (`helpers.summary`, MIME type application/vnd.hybridize.record+json): the CPU, the versions,
and each key quantity with its factor, interval, threshold and verdict.

The report, in `--out`: `index.html`, one self-contained page for the screen (figures inlined,
alt text on each), and each figure as a PNG file. For every key quantity a dot plot across the
class's machines, grouped by CPU model, with the claim's threshold drawn and how many runs agree
with the verdict of the collection's own stored run; then a table of the CPU models and versions
seen, with versions that differ from the pins (requirements.txt) marked.

Nothing is lost and nothing crashes on bad input: a notebook that cannot be read, was never
executed or has no record, a record with wrong types or missing fields, the same student twice
(the latest submission counts, the report says which were set aside) and records from another
version of the collection are each counted and named in the report. Nothing is sent anywhere.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import html
import io
import json
import re
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from helpers.record import RECORD_MIME, Record, RecordError, collection_version, record_from_json  # noqa: E402

PROBLEM_KINDS = {
    "unreadable": "could not be read as a notebook",
    "not executed": "was never executed (no outputs)",
    "no record": "was executed but holds no Summary record (not run to the end?)",
    "bad record": "holds a record with wrong types or missing fields",
    "other version": "comes from another version of the collection",
    "superseded": "was set aside: the same student handed in a later run of the same notebook",
}


@dataclass
class Submission:
    """One handed-in notebook: who, which, where, and when it was handed in."""

    student: str
    path: Path
    time: Optional[dt.datetime] = None  # nbgrader's timestamp.txt, else the record's time


@dataclass
class Entry:
    """One valid record with the student who ran it."""

    student: str
    path: Path
    record: Record
    time: dt.datetime  # when it was handed in (nbgrader's timestamp), else when it ran


@dataclass
class Problem:
    """A notebook or record that does not count, and why."""

    kind: str
    student: str
    path: Path
    detail: str = ""


@dataclass
class Collection:
    """What was read: the records that count and the problems, each named."""

    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notebooks_read: int = 0


def _aware(when: dt.datetime) -> dt.datetime:
    """A datetime with a time zone (UTC when it has none), so that times compare."""
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def nbgrader_time(folder: Path) -> Optional[dt.datetime]:
    """The time in nbgrader's timestamp.txt of a submission folder ('2026-11-26 20:30:00.123456 UTC'), or None."""
    stamp = folder / "timestamp.txt"
    if not stamp.is_file():
        return None
    text = stamp.read_text(encoding="utf-8", errors="replace").strip()
    text = re.sub(r"\s+(UTC|GMT|Z)$", "", text)
    try:
        return _aware(dt.datetime.fromisoformat(text))
    except ValueError:
        return None


def find_submissions(paths: Sequence[Path]) -> list[Submission]:
    """Every notebook under `paths`, with its student (see the module's docstring)."""
    found = []
    for root in paths:
        root = Path(root)
        if not root.exists():
            raise FileNotFoundError(f"PATH does not exist: {root}")
        if root.is_file():
            found.append(Submission(root.stem, root))
            continue
        base = root / "submitted" if (root / "submitted").is_dir() else root
        for path in sorted(base.rglob("*.ipynb")):
            if ".ipynb_checkpoints" in path.parts:
                continue
            parts = path.relative_to(base).parts
            if base.name == "submitted" and len(parts) >= 3:       # submitted/STUDENT/ASSIGNMENT/x.ipynb
                found.append(Submission(parts[0], path, nbgrader_time(path.parent)))
            elif len(parts) >= 2:
                found.append(Submission(parts[0], path, nbgrader_time(path.parent)))
            else:
                found.append(Submission(path.stem, path))
    return found


def raw_records(nb: dict) -> tuple[bool, list[Any]]:
    """(whether any code cell was executed, the records embedded in its outputs)."""
    executed, records = False, []
    for cell in nb.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        outputs = cell.get("outputs") or []
        if outputs or cell.get("execution_count") is not None:
            executed = True
        for output in outputs:
            data = output.get("data") if isinstance(output, dict) else None
            if isinstance(data, dict) and RECORD_MIME in data:
                value = data[RECORD_MIME]
                if isinstance(value, str):  # some tools store JSON MIME data as a string
                    try:
                        value = json.loads(value)
                    except json.JSONDecodeError:
                        pass
                records.append(value)
    return executed, records


def collect(paths: Sequence[Path], version: Optional[str] = None) -> Collection:
    """Read every notebook under `paths`; keep the latest valid record per student and notebook."""
    version = version or collection_version()
    result = Collection()
    latest: dict[tuple[str, str], Entry] = {}
    for sub in find_submissions(paths):
        result.notebooks_read += 1
        try:
            nb = json.loads(sub.path.read_text(encoding="utf-8"))
            if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
                raise ValueError("no list of cells")
        except (OSError, UnicodeDecodeError, ValueError) as error:
            result.problems.append(Problem("unreadable", sub.student, sub.path, str(error)[:200]))
            continue
        executed, records = raw_records(nb)
        if not executed:
            result.problems.append(Problem("not executed", sub.student, sub.path))
            continue
        if not records:
            result.problems.append(Problem("no record", sub.student, sub.path))
            continue
        for data in records:
            try:
                record = record_from_json(data)
            except RecordError as error:
                result.problems.append(Problem("bad record", sub.student, sub.path, str(error)))
                continue
            if record.collection != version:
                result.problems.append(Problem("other version", sub.student, sub.path,
                                               f"version {record.collection}, this report reads {version}"))
                continue
            entry = Entry(sub.student, sub.path, record,
                          sub.time or _aware(dt.datetime.fromisoformat(record.created)))
            key = (sub.student, record.notebook)
            old = latest.get(key)
            if old is not None:
                newer, older = (entry, old) if entry.time >= old.time else (old, entry)
                result.problems.append(Problem("superseded", older.student, older.path,
                                               f"{record.notebook}: a later run in {_short(newer.path)} counts"))
                entry = newer
            latest[key] = entry
    result.entries = sorted(latest.values(), key=lambda e: (e.record.notebook, e.student))
    return result


def _short(path: Path) -> str:
    """The last three parts of a path, enough to find it and short enough to read."""
    return "/".join(path.parts[-3:])


def differs_from_pin(version: str, pinned: Optional[str]) -> bool:
    """True when `version` is not the pinned one; a local label (2.13.0+cpu) is the same release."""
    if not version or not pinned:
        return False
    return version.split("+")[0] != pinned.split("+")[0]


def pins(root: Path = ROOT) -> dict[str, str]:
    """{framework: pinned version} from requirements.txt (lines `name==version`)."""
    from helpers.frameworks import FRAMEWORKS
    dists = {dist.lower(): name for name, (_, dist) in FRAMEWORKS.items()}
    found = {}
    path = root / "requirements.txt"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"\s*([A-Za-z0-9_.-]+)==([^;\s]+)", line)
            if match and match.group(1).lower() in dists:
                found[dists[match.group(1).lower()]] = match.group(2)
    return found


@dataclass
class QuantitySeries:
    """One key quantity of one notebook across the class: a point per run."""

    notebook: str
    name: str
    kind: str
    threshold: Optional[float]
    unit: str
    points: list[tuple[str, str, Any]] = field(default_factory=list)  # (student, cpu, Quantity)

    def verdicts(self) -> Counter:
        """How many runs read each verdict."""
        return Counter(q.verdict for _, _, q in self.points if q.verdict)


def aggregate(entries: Iterable[Entry]) -> list[QuantitySeries]:
    """Group the runs' quantities by notebook and name, in the order the notebooks list them."""
    series: dict[tuple[str, str], QuantitySeries] = {}
    for entry in entries:
        for q in entry.record.quantities:
            key = (entry.record.notebook, q.name)
            if key not in series:
                series[key] = QuantitySeries(entry.record.notebook, q.name, q.kind, q.threshold, q.unit)
            series[key].points.append((entry.student, entry.record.machine.get("cpu", "unknown CPU"), q))
    return sorted(series.values(), key=lambda s: s.notebook)


def reference_verdicts(notebooks: Path = ROOT / "notebooks") -> dict[tuple[str, str], str]:
    """{(notebook, quantity): verdict} from the collection's own stored runs, the verdict a claim states."""
    found = {}
    for path in sorted(notebooks.glob("[0-9]*.ipynb")):
        try:
            _, records = raw_records(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
        for data in records:
            try:
                record = record_from_json(data)
            except RecordError:
                continue
            for q in record.quantities:
                if q.verdict:
                    found[(record.notebook, q.name)] = q.verdict
    return found


def agreement(series: QuantitySeries, reference: Optional[str]) -> tuple[Optional[str], int, int]:
    """(the verdict runs are compared with, how many agree, how many have a verdict)."""
    counts = series.verdicts()
    total = sum(counts.values())
    if not total:
        return None, 0, 0
    expected = reference if reference else counts.most_common(1)[0][0]
    return expected, counts.get(expected, 0), total


def figure(series: QuantitySeries, expected: Optional[str], agree: int, total: int):
    """A dot plot of one quantity across the class, grouped by CPU model; returns (figure, alt text)."""
    from matplotlib.figure import Figure
    cpus = sorted({cpu for _, cpu, _ in series.points})
    rows: list[tuple[str, str, Any]] = sorted(series.points, key=lambda p: (cpus.index(p[1]), p[0]))
    height = 1.6 + 0.32 * len(rows) + 0.25 * len(cpus)
    fig = Figure(figsize=(9, height), facecolor="white")
    ax = fig.add_subplot()
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"]
    labels, positions, y = [], [], 0
    for cpu_index, cpu in enumerate(cpus):
        color = palette[cpu_index % len(palette)]
        for student, row_cpu, q in rows:
            if row_cpu != cpu:
                continue
            if q.low is not None and q.high is not None:
                ax.plot([q.low, q.high], [y, y], color=color, lw=2, solid_capstyle="butt")
            ax.plot([q.value], [y], "o", color=color, ms=6, label=cpu if not labels or labels[-1][1] != cpu else None)
            labels.append((student, cpu))
            positions.append(y)
            y += 1
        y += 0.5
    ax.set_yticks(positions, [student for student, _ in labels])
    ax.invert_yaxis()
    if series.unit == "x":
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.axvline(1.0, color="#555555", lw=1, ls=":")
    if series.threshold:
        for t in (series.threshold, 1 / series.threshold):
            ax.axvline(t, color="black", lw=1.2, ls="--")
    unit = "factor (x), log scale" if series.unit == "x" else series.unit
    ax.set_xlabel(unit)
    ax.set_title(f"{series.notebook}: {series.name}", fontsize=11, loc="left")
    ax.legend(title="CPU model", fontsize=8, title_fontsize=8, loc="best")
    fig.tight_layout()
    values = [q.value for _, _, q in series.points]
    count = f"{agree} of {total} runs read '{expected}'" if expected else "no verdicts"
    threshold = f" Dashed lines mark the threshold {series.threshold:g}x and its inverse." if series.threshold else ""
    alt = (f"Dot plot of '{series.name}' ({series.notebook}, a {series.kind}) for {len(values)} runs on "
           f"{len(cpus)} CPU model{'s' if len(cpus) != 1 else ''} ({'; '.join(cpus)}): values from "
           f"{min(values):.3g} to {max(values):.3g} {series.unit}, median {statistics.median(values):.3g}, "
           f"each with its interval as a line.{threshold} {count}.")
    return fig, alt


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60] or "quantity"


CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:70rem;margin:0 auto;
padding:1rem 2rem;color:#111;background:#fff;line-height:1.45}h1{font-size:1.8rem}h2{margin-top:2.2rem;
border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #bbb;
padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:#eee}.claim{color:#064;font-weight:600}
.finding{color:#733;font-weight:600}.differs{background:#fff3c4}img{max-width:100%;height:auto}
figure{margin:1rem 0}figcaption{font-size:.95rem}"""


def render(collection: Collection, out: Path, reference: Optional[dict] = None) -> Path:
    """Write out/index.html and out/figures/*.png; return the page's path."""
    out.mkdir(parents=True, exist_ok=True)
    figures_dir = out / "figures"
    figures_dir.mkdir(exist_ok=True)
    for old in figures_dir.glob("*.png"):
        old.unlink()
    reference = reference_verdicts() if reference is None else reference
    series = aggregate(collection.entries)
    pinned = pins()
    e = html.escape
    students = sorted({entry.student for entry in collection.entries})
    cpus = Counter(entry.record.machine.get("cpu", "unknown CPU") for entry in collection.entries)
    body = [f"<h1>The class's own numbers</h1>",
            f"<p>{len(collection.entries)} runs by {len(students)} students on {len(cpus)} CPU model{'s' if len(cpus) != 1 else ''} "
            f"({collection.notebooks_read} notebooks read, {len(collection.problems)} set aside: see "
            f"<a href=\"#set-aside\">what was set aside</a>). A <span class=\"claim\">claim</span> should "
            f"read the same on every machine; a <span class=\"finding\">finding</span> depends on the machine.</p>"]
    current = None
    for number, s in enumerate(series, 1):
        if s.notebook != current:
            current = s.notebook
            body.append(f"<h2 id=\"{e(_slug(s.notebook))}\">{e(s.notebook)}</h2>")
        expected, agree, total = agreement(s, reference.get((s.notebook, s.name)))
        fig, alt = figure(s, expected, agree, total)
        data = png_bytes(fig)
        name = f"{number:02d}-{_slug(s.notebook)}-{_slug(s.name)}.png"
        (figures_dir / name).write_bytes(data)
        counts = "; ".join(f"{e(v)}: {n}" for v, n in s.verdicts().most_common()) or "no verdicts"
        agreeing = (f"{agree} of {total} runs agree with '{e(expected)}'"
                    + (" (the collection's stored run)" if reference.get((s.notebook, s.name)) else " (the most common)")
                    if expected else "no verdicts")
        body.append(f"<h3>{e(s.name)} <span class=\"{s.kind}\">({s.kind})</span></h3>"
                    f"<p>{agreeing}. Verdicts read: {counts}.</p>"
                    f"<figure><img src=\"data:image/png;base64,{base64.b64encode(data).decode()}\" alt=\"{e(alt)}\">"
                    f"<figcaption>{e(alt)} File: figures/{e(name)}</figcaption></figure>")
    if not series:
        body.append("<p>No records to show yet.</p>")
    body.append("<h2 id=\"machines\">Machines and versions</h2>")
    frameworks = sorted({fw for entry in collection.entries for fw in entry.record.machine.get("versions", {})})
    machines: dict[str, list[Entry]] = defaultdict(list)
    for entry in collection.entries:
        m = entry.record.machine
        key = json.dumps([m.get("cpu"), m.get("cores"), m.get("os"), m.get("python"), m.get("versions", {}),
                          m.get("settings", {})], sort_keys=True)
        machines[key].append(entry)
    columns = ["CPU", "cores", "OS", "Python", *frameworks, "settings", "runs", "students"]
    head = "".join(f"<th scope=\"col\">{e(c)}</th>" for c in columns)
    rows, differ = [], 0
    for key, group in sorted(machines.items(), key=lambda kv: kv[0]):
        m = group[0].record.machine
        row = "".join(f"<td>{e(str(m.get(c, '')))}</td>" for c in ("cpu", "cores", "os", "python"))
        marked = False
        for fw in frameworks:
            v = m.get("versions", {}).get(fw, "")
            if differs_from_pin(v, pinned.get(fw)):
                marked = True
                row += f"<td class=\"differs\">{e(v)} (pinned {e(pinned[fw])})</td>"
            else:
                row += f"<td>{e(v)}</td>"
        differ += marked * len(group)
        settings = ", ".join(f"{k}={v}" for k, v in m.get("settings", {}).items())
        who = ", ".join(sorted({entry.student for entry in group}))
        row += f"<td>{e(settings)}</td><td>{len(group)}</td><td>{e(who)}</td>"
        rows.append(f"<tr>{row}</tr>")
    body.append(f"<p>{len(machines)} configuration{'s' if len(machines) != 1 else ''} seen; {differ} "
                f"run{'s' if differ != 1 else ''} with versions that differ from the pins (marked).</p>"
                f"<table><caption>Each configuration seen: CPU, versions and settings</caption><thead><tr>{head}</tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table>")
    body.append("<h2 id=\"set-aside\">What was set aside</h2>")
    if collection.problems:
        kinds = Counter(p.kind for p in collection.problems)
        body.append("<ul>" + "".join(f"<li>{n} notebook{'s' if n != 1 else ''} {e(PROBLEM_KINDS[k])}</li>"
                                     for k, n in kinds.items()) + "</ul>")
        body.append("<table><caption>Each notebook or record set aside</caption><thead><tr><th scope=\"col\">why</th>"
                    "<th scope=\"col\">student</th><th scope=\"col\">file</th><th scope=\"col\">detail</th></tr></thead><tbody>"
                    + "".join(f"<tr><td>{e(p.kind)}</td><td>{e(p.student)}</td><td>{e(_short(p.path))}</td>"
                              f"<td>{e(p.detail)}</td></tr>" for p in collection.problems) + "</tbody></table>")
    else:
        body.append("<p>Nothing: every notebook read held a valid record of this version.</p>")
    page = (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>The class's own numbers</title><style>{CSS}</style></head>"
            f"<body><main>{''.join(body)}</main></body></html>\n")
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def summary_lines(collection: Collection) -> list[str]:
    """What the command prints: the counts, and each problem named."""
    lines = [f"{len(collection.entries)} records counted from {collection.notebooks_read} notebooks"]
    for p in collection.problems:
        lines.append(f"  set aside ({p.kind}): {_short(p.path)} ({p.student})" + (f": {p.detail}" if p.detail else ""))
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="nbgrader's course or submitted/ folder, a folder of handed-in notebooks, or notebooks")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "class-results")
    args = parser.parse_args(argv)
    try:
        collection = collect(args.paths)
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for line in summary_lines(collection):
        print(line)
    page = render(collection, args.out)
    print(f"report: {page} ({len(list((args.out / 'figures').glob('*.png')))} figures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
