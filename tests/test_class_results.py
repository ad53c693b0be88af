"""tools/class_results.py: records read out of handed-in notebooks, aggregated, bad input named, a report built."""

import importlib.util
import json
import sys
from pathlib import Path

import nbformat
import pytest

import helpers
from helpers.comparison import Ratio
from helpers.record import RECORD_MIME

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("class_results", ROOT / "tools" / "class_results.py")
class_results = importlib.util.module_from_spec(spec)
sys.modules["class_results"] = class_results  # dataclasses look their module up
spec.loader.exec_module(class_results)


def record(cpu="AMD EPYC (family 25, model 1)", factor=4.9, low=4.5, high=5.3, created="2026-11-26T10:00:00+00:00",
           notebook="03_pytorch", **changes):
    data = helpers.summary(notebook, {
        "torch.compile against eager": helpers.claim(Ratio("c", "e", factor, low, high, 40), 1.5),
        "first call": helpers.finding(12.0, unit="s"),
    }).to_json()
    data["machine"]["cpu"] = cpu
    data["created"] = created
    data.update(changes)
    return data


def notebook(path: Path, *records, executed=True) -> Path:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("helpers.summary(...)")
    if executed:
        cell.execution_count = 1
        cell.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "summary", RECORD_MIME: r},
                                               execution_count=1) for r in records]
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook"), cell]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_records_come_out_of_a_folder_of_students(tmp_path):
    notebook(tmp_path / "ana" / "03_pytorch.ipynb", record(factor=4.9))
    notebook(tmp_path / "ben" / "03_pytorch.ipynb", record(cpu="AMD EPYC (family 25, model 17)", factor=2.1, low=1.9, high=2.4))
    result = class_results.collect([tmp_path])
    assert [e.student for e in result.entries] == ["ana", "ben"]
    assert result.problems == []
    series = class_results.aggregate(result.entries)
    assert [(s.notebook, s.name, s.kind) for s in series] == [("03_pytorch", "torch.compile against eager", "claim"),
                                                            ("03_pytorch", "first call", "finding")]
    claim = series[0]
    assert [q.value for _, _, q in claim.points] == [4.9, 2.1]
    assert claim.threshold == 1.5
    assert class_results.agreement(claim, "faster by more than 1.50x") == ("faster by more than 1.50x", 2, 2)


def test_agreement_counts_the_runs_that_differ(tmp_path):
    notebook(tmp_path / "ana" / "x.ipynb", record(factor=4.9))
    notebook(tmp_path / "ben" / "x.ipynb", record(factor=1.3, low=0.9, high=1.7))
    series = class_results.aggregate(class_results.collect([tmp_path]).entries)[0]
    assert series.verdicts() == {"faster by more than 1.50x": 1, "not resolved at 1.50x": 1}
    assert class_results.agreement(series, "faster by more than 1.50x") == ("faster by more than 1.50x", 1, 2)


def test_nbgrader_submissions_name_their_students_and_times(tmp_path):
    course = tmp_path / "course"
    for student, stamp in (("ana", "2026-11-26 09:00:00.000000 UTC"), ("ben", "2026-11-26 09:30:00.000000 UTC")):
        folder = course / "submitted" / student / "03_pytorch"
        notebook(folder / "03_pytorch.ipynb", record())
        (folder / "timestamp.txt").write_text(stamp)
    subs = class_results.find_submissions([course])
    assert [(s.student, s.time.hour, s.time.minute) for s in subs] == [("ana", 9, 0), ("ben", 9, 30)]
    assert len(class_results.collect([course]).entries) == 2


def test_every_kind_of_bad_input_is_counted_and_named(tmp_path):
    notebook(tmp_path / "ana" / "03_pytorch.ipynb", record())
    notebook(tmp_path / "ben" / "03_pytorch.ipynb", record(), executed=False)               # never executed
    notebook(tmp_path / "cem" / "03_pytorch.ipynb")                                          # executed, no record
    (tmp_path / "cem" / "03_pytorch.ipynb").write_text(
        json.dumps({**json.loads((tmp_path / "cem" / "03_pytorch.ipynb").read_text()),
                    "cells": [{"cell_type": "code", "execution_count": 1, "outputs": [], "source": ""}]}))
    bad = record()
    bad["quantities"][0]["value"] = "fast"
    notebook(tmp_path / "dana" / "03_pytorch.ipynb", bad)                                    # wrong type
    missing = record()
    del missing["machine"]["cpu"]
    notebook(tmp_path / "eli" / "03_pytorch.ipynb", missing)                                 # missing field
    notebook(tmp_path / "fay" / "03_pytorch.ipynb", record(collection="0.0.1"))              # other version
    (tmp_path / "gus").mkdir()
    (tmp_path / "gus" / "03_pytorch.ipynb").write_text("{not json")                         # unreadable
    result = class_results.collect([tmp_path])
    kinds = {(p.student, p.kind) for p in result.problems}
    assert kinds == {("ben", "not executed"), ("cem", "no record"), ("dana", "bad record"), ("eli", "bad record"),
                     ("fay", "other version"), ("gus", "unreadable")}
    details = {p.student: p.detail for p in result.problems}
    assert "quantities[0].value" in details["dana"] and "machine.cpu: missing" in details["eli"]
    assert "0.0.1" in details["fay"]
    assert [e.student for e in result.entries] == ["ana"]
    assert result.notebooks_read == 7
    page = class_results.render(result, tmp_path / "report", reference={}).read_text()
    for student in ("ben", "cem", "dana", "eli", "fay", "gus"):
        assert f"<td>{student}</td>" in page
    assert "<td>ana</td>" in page, "the machines table names who ran on each"


def test_the_same_student_twice_keeps_the_latest(tmp_path):
    notebook(tmp_path / "ana" / "first" / "03_pytorch.ipynb", record(factor=2.0, created="2026-11-26T09:00:00+00:00"))
    notebook(tmp_path / "ana" / "second" / "03_pytorch.ipynb", record(factor=3.0, created="2026-11-26T11:00:00+00:00"))
    result = class_results.collect([tmp_path])
    assert [e.record.quantities[0].value for e in result.entries] == [3.0]
    assert [(p.kind, p.path.parent.name) for p in result.problems] == [("superseded", "first")]
    page = class_results.render(result, tmp_path / "report", reference={}).read_text()
    assert "superseded" in page and "later run" in page


def test_the_report_shows_every_quantity_with_its_threshold_and_alt_text(tmp_path):
    notebook(tmp_path / "ana" / "x.ipynb", record(factor=4.9))
    notebook(tmp_path / "ben" / "x.ipynb", record(cpu="Apple M2", factor=1.3, low=0.9, high=1.7))
    notebook(tmp_path / "cem" / "x.ipynb", record(torch="9.9"))
    result = class_results.collect([tmp_path])
    result.entries[0].record.machine["versions"]["torch"] = "9.9.9"
    result.entries[1].record.machine["versions"]["torch"] = "2.13.0+cpu"
    page = class_results.render(result, tmp_path / "report", reference={}).read_text()
    pngs = sorted((tmp_path / "report" / "figures").glob("*.png"))
    assert len(pngs) == 2 and all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)
    assert page.count("<img ") == 2 and 'src="data:image/png;base64,' in page
    assert "Dashed lines mark the threshold 1.5x" in page
    assert "1 of 3 runs agree" in page or "2 of 3 runs agree" in page
    assert "9.9.9 (pinned" in page, "a version that differs from the pins is marked"
    assert "2.13.0+cpu (pinned" not in page, "a local build of the pinned release is the same version"
    assert "Apple M2" in page


def test_a_missing_path_is_an_error_that_names_it(tmp_path, capsys):
    assert class_results.main([str(tmp_path / "nowhere"), "--out", str(tmp_path / "r")]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_the_command_prints_counts_and_problems(tmp_path, capsys):
    notebook(tmp_path / "ana" / "x.ipynb", record())
    notebook(tmp_path / "ben" / "x.ipynb", record(), executed=False)
    assert class_results.main([str(tmp_path), "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "1 records counted from 2 notebooks" in out and "set aside (not executed)" in out
    assert (tmp_path / "r" / "index.html").exists()


@pytest.mark.browser
def test_the_report_renders_in_chromium_and_passes_axe(tmp_path):
    from axe_playwright_python.sync_playwright import Axe
    from jupyterlab_driver import MISSING_CHROMIUM, block_remote, chromium, chromium_path
    if chromium_path() is None:
        pytest.skip(MISSING_CHROMIUM)
    notebook(tmp_path / "ana" / "x.ipynb", record(factor=4.9))
    notebook(tmp_path / "ben" / "x.ipynb", record(cpu="Apple M2", factor=1.3, low=0.9, high=1.7))
    notebook(tmp_path / "cem" / "x.ipynb", record(), executed=False)
    page_path = class_results.render(class_results.collect([tmp_path]), tmp_path / "report", reference={})
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        remote = block_remote(context)
        page = context.new_page()
        page.goto(page_path.as_uri(), wait_until="load")
        widths = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
        assert len(widths) == 2 and min(widths) > 0, "every figure loads"
        violations = [(v["id"], v["impact"], len(v["nodes"])) for v in Axe().run(page).response["violations"]]
        context.close()
    assert not remote, f"the report asked another host for: {remote[:5]}"
    assert not violations, f"axe violations (rule, impact, nodes): {violations}"
