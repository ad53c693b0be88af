"""Unit tests of helpers.seeds: seed verdicts as Summary claims, and their p-value."""

import itertools
import math

import pytest

import helpers
from helpers.seeds import accuracy_claim, accuracy_finding, loss_claim, loss_claim_seed_pairs, separation_p


def test_separation_p_counts_the_rankings():
    assert separation_p(3, 3) == pytest.approx(1 / 20)
    assert separation_p(1, 1) == pytest.approx(1 / 2)
    assert separation_p(2, 3) == pytest.approx(1 / 10)
    # by enumeration: of all orderings of six distinct values, the share that puts a's three on top
    tops = sum(set(order[3:]) == {0, 1, 2} for order in itertools.permutations(range(6)))
    assert separation_p(3, 3) == pytest.approx(tops / math.factorial(6))


def test_separation_p_is_the_exact_mann_whitney_p_value():
    stats = pytest.importorskip("scipy.stats")
    p = stats.mannwhitneyu([0.96, 0.97, 0.98], [0.2, 0.25, 0.3], alternative="greater", method="exact").pvalue
    assert separation_p(3, 3) == pytest.approx(p)


@pytest.mark.parametrize("n_a, n_b, name", [(0, 3, "n_a"), (3, -1, "n_b"), (2.0, 3, "n_a"), (True, 3, "n_a")])
def test_separation_p_names_a_bad_size(n_a, n_b, name):
    with pytest.raises(ValueError, match=name):
        separation_p(n_a, n_b)


def test_accuracy_claim_is_a_claim_in_points():
    q = accuracy_claim([0.96, 0.97, 0.965], [0.2, 0.25, 0.22], margin=0.20)
    assert (q.kind, q.unit, q.threshold, q.verdict) == ("claim", "points", pytest.approx(20), "higher by more than 20 points")
    assert q.value == pytest.approx(100 * (0.965 - 0.67 / 3))
    assert (q.low, q.high) == (pytest.approx(71.0), pytest.approx(77.0))   # 0.96 - 0.25 and 0.97 - 0.2
    near = accuracy_claim([0.96, 0.97], [0.965, 0.955], margin=0.05)
    assert near.verdict == "less than 5 points apart"
    assert accuracy_claim([0.9], [0.95], margin=0.01).verdict == "lower by more than 1 point"


def test_accuracy_finding_keeps_the_claim_numbers_as_a_finding():
    claim = accuracy_claim([0.96, 0.97], [0.94, 0.95], margin=0.02)
    found = accuracy_finding([0.96, 0.97], [0.94, 0.95], margin=0.02)
    assert found.kind == "finding" and claim.kind == "claim"
    assert (found.value, found.low, found.high, found.threshold, found.verdict) == \
        (claim.value, claim.low, claim.high, claim.threshold, claim.verdict)
    with pytest.raises(ValueError, match="margin"):
        accuracy_finding([0.5], [0.5], margin=0)


def test_loss_claim_is_a_factor_over_the_seed_pairs():
    q = loss_claim([0.09, 0.10], [0.18, 0.20], threshold=1.2)
    assert (q.kind, q.unit, q.threshold, q.verdict) == ("claim", "x", 1.2, "lower by more than 1.2x")
    assert (q.value, q.low, q.high) == (pytest.approx(0.19 / 0.095), pytest.approx(1.8), pytest.approx(20 / 9))
    assert loss_claim([0.10, 0.11], [0.105, 0.115], threshold=1.2).verdict == "less than 1.2x apart"


def test_claims_go_into_a_summary():
    record = helpers.summary("09_activations_init", {
        "ReLU against Sigmoid, accuracy": accuracy_claim([0.96, 0.97], [0.2, 0.25], margin=0.20),
        "He against default, loss": loss_claim([0.09, 0.10], [0.18, 0.20], threshold=1.2)})
    text = record.text()
    assert "ReLU against Sigmoid, accuracy: higher by more than 20 points, 74 points" in text
    assert "He against default, loss: lower by more than 1.2x" in text
    assert [q["kind"] for q in record.to_json()["quantities"]] == ["claim", "claim"]


def test_claims_check_their_arguments():
    with pytest.raises(TypeError, match="a"):
        accuracy_claim([], [0.5], margin=0.1)
    with pytest.raises(ValueError, match="margin"):
        accuracy_claim([0.5], [0.5], margin=0)
    with pytest.raises(ValueError, match="threshold"):
        loss_claim([0.1], [0.2], threshold=1.0)
    with pytest.raises(ValueError, match="positive"):
        loss_claim([0.1], [-0.2], threshold=1.2)


def test_loss_claim_seed_pairs_labels_its_range():
    a, b = [0.087, 0.091, 0.082], [0.196, 0.191, 0.160]
    q = loss_claim_seed_pairs(a, b, threshold=1.2)
    plain = loss_claim(a, b, threshold=1.2)
    assert (q.value, q.low, q.high, q.verdict) == (plain.value, plain.low, plain.high, plain.verdict)
    assert q.to_json() == plain.to_json()
    record = helpers.summary("09_x", {"loss": q})
    line = record.text().splitlines()[-1]
    assert line.startswith("  loss: lower by more than 1.2x, ")
    assert "(all pairs of seeds: " in line and line.endswith("x)")
    assert line.replace("all pairs of seeds: ", "") == f"  {replace_name(plain, 'loss').text()}"


def replace_name(q, name):
    import dataclasses
    return dataclasses.replace(q, name=name)


def test_loss_claim_seed_pairs_names_a_bad_threshold():
    with pytest.raises(ValueError, match="threshold"):
        loss_claim_seed_pairs([0.1, 0.1, 0.1], [0.2, 0.2, 0.2], threshold=0.5)
