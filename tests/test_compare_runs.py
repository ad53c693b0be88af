"""Unit tests of tools/compare_runs.py: reading factors and verdicts out of notebook outputs."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("compare_runs", Path(__file__).parent.parent / "tools" / "compare_runs.py")
compare_runs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_runs)

TEXT = ["tf.function against eager: faster by more than 2.00x, 5.90x (5.60x to 6.20x)\nPlain 3.5 and v2x are no factors\n",
        "1032 against 1024: less than 1.20x apart, 1.03x (1.00x to 1.06x)\n",
        "compile against eager: not resolved at 3.00x, 0.62x (0.61x to 0.63x)\n"]


def test_factors_are_read_in_order():
    assert compare_runs.factors(TEXT) == [5.9, 5.6, 6.2, 1.03, 1.0, 1.06, 0.62, 0.61, 0.63]


def test_roofline_distances_are_counted_apart_from_speed_ups():
    text = ["torch.jit.script   | 11.27 GFLOP/s, 4.5x | 88.16 GFLOP/s, 1.0x\nbatch 1: 2.00x\n"]
    assert compare_runs.factors(text) == [2.0]
    assert compare_runs.factors(text, speed_ups=False) == [4.5, 1.0]


def test_verdicts_are_read_with_their_claims():
    assert compare_runs.verdicts(TEXT) == [("tf.function against eager", "faster by more than 2.00x"),
                                           ("1032 against 1024", "less than 1.20x apart"),
                                           ("compile against eager", "not resolved at 3.00x")]


def test_report_flags_a_changed_verdict(capsys):
    other = [TEXT[0].replace("faster by more than 2.00x", "not resolved at 2.00x").replace("5.90x", "5.00x"), *TEXT[1:]]
    assert compare_runs.report("nb", TEXT, other) is False
    out = capsys.readouterr().out
    assert "factors within ±10 %: 8/9 (89 %)" in out
    assert "tf.function against eager: faster by more than 2.00x / not resolved at 2.00x" in out
    totals = {}
    assert compare_runs.report("nb", TEXT, TEXT, totals) is True
    assert totals["speed"] == (9, 9) and totals["verdicts"] == (3, 3)


def test_verdicts_of_different_work_read_shorter_and_longer():
    text = ["a call on 1 number against one on 1,000,000 numbers: shorter by more than 10.00x, 1750x (1700x to 1780x)\n"]
    assert compare_runs.verdicts(text) == [("a call on 1 number against one on 1,000,000 numbers",
                                            "shorter by more than 10.00x")]
