"""The project's conftest gives each test the environment it started with."""

from pathlib import Path

pytest_plugins = ["pytester"]

FIXTURES = (Path(__file__).resolve().parent.parent / "conftest.py").read_text(encoding="utf-8")
TESTS = """
import os

def test_a_sets_a_thread_count_and_leaves_it():
    os.environ["MKL_NUM_THREADS"] = "7"

def test_b_starts_without_it():
    assert "MKL_NUM_THREADS" not in os.environ
"""


def _run(pytester, monkeypatch, with_fixture: bool):
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    if with_fixture:
        pytester.makeconftest(FIXTURES)
    pytester.makepyfile(test_order=TESTS)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "addopts=")


def test_a_variable_set_by_one_test_is_gone_in_the_next(pytester, monkeypatch):
    _run(pytester, monkeypatch, with_fixture=True).assert_outcomes(passed=2)


def test_without_the_fixture_the_variable_leaks(pytester, monkeypatch):
    _run(pytester, monkeypatch, with_fixture=False).assert_outcomes(passed=1, failed=1)
