"""The Summary's record: what it shows, what it embeds, and how a bad record read back is named."""

import json

import pytest

import helpers
from helpers.comparison import Ratio
from helpers.record import RECORD_MIME, RecordError, record_from_json


def ratio(median=4.95, low=4.82, high=5.02, rounds=40):
    return Ratio("jit", "eager", median, low, high, rounds)


def test_summary_shows_text_and_embeds_json():
    record = helpers.summary("03_pytorch", {
        "torch.compile against eager, batch 256": helpers.claim(ratio(), 1.5),
        "jax.jit against JAX eager, batch 1": helpers.finding(ratio(1.04, 0.97, 1.86), 1.1),
        "first call of torch.compile": helpers.finding(12.345, unit="s"),
    })
    bundle = record._repr_mimebundle_()
    text = bundle["text/plain"]
    assert "torch.compile against eager, batch 256: faster by more than 1.50x, 4.95x (4.82x to 5.02x)" in text
    assert "jax.jit against JAX eager, batch 1: not resolved at 1.10x, 1.04x (0.97x to 1.86x)" in text
    assert "first call of torch.compile: 12.3 s" in text
    assert text.index("Should hold on any machine") < text.index("Depends on the machine")
    data = json.loads(json.dumps(bundle[RECORD_MIME]))  # JSON types only
    assert data["notebook"] == "03_pytorch"
    assert data["machine"]["cores"] == helpers.usable_cores()
    assert data["machine"]["cpu"] == helpers.cpu_model()
    claimed = data["quantities"][0]
    assert (claimed["kind"], claimed["threshold"], claimed["verdict"]) == ("claim", 1.5, "faster by more than 1.50x")
    assert (claimed["value"], claimed["low"], claimed["high"]) == (4.95, 4.82, 5.02)
    assert data["quantities"][2]["unit"] == "s" and data["quantities"][2]["verdict"] is None


def test_record_round_trips_through_json():
    record = helpers.summary("01_imperative", {"a": helpers.claim(ratio(), 1.2), "b": helpers.finding(3.0, unit="µs")})
    back = record_from_json(json.loads(json.dumps(record.to_json())))
    assert back.to_json() == record.to_json()


def test_settings_that_change_the_kernels_are_recorded(monkeypatch):
    from helpers.record import SETTINGS
    for name in SETTINGS:                      # the test suite itself sets some (HYBRID_QUICK)
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "avx2")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    record = helpers.summary("01_imperative", {"a": helpers.claim(ratio(), 1.2)})
    assert record.machine["settings"] == {"OMP_NUM_THREADS": "1", "ATEN_CPU_CAPABILITY": "avx2"}
    assert "ATEN_CPU_CAPABILITY=avx2" in record.text()


def test_the_machine_line_calls_the_versions_installed_not_used(monkeypatch):
    from helpers.record import SETTINGS
    for name in SETTINGS:                      # no settings, so the line ends with the versions
        monkeypatch.delenv(name, raising=False)
    record = helpers.summary("01_imperative", {"a": helpers.claim(ratio(), 1.2)})
    record.machine["versions"] = {"numpy": "2.4.6", "torch": "2.13.0"}
    first = record.text().splitlines()[0]
    assert first.startswith("This run: ") and first.endswith("; installed: numpy 2.4.6, torch 2.13.0")


@pytest.mark.parametrize("call, message", [
    (lambda: helpers.summary("", {"a": helpers.finding(1.0)}), "notebook"),
    (lambda: helpers.summary("01", {}), "quantities"),
    (lambda: helpers.summary("01", {"": helpers.finding(1.0)}), "name"),
    (lambda: helpers.claim(ratio(), 0.9), "threshold"),
    (lambda: helpers.claim(2.0, 1.5), "ratio"),
    (lambda: helpers.finding("fast"), "measured"),
    (lambda: helpers.finding(float("nan")), "measured"),
    (lambda: helpers.finding(2.0, threshold=1.5), "threshold"),
])
def test_bad_arguments_name_the_argument(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def good():
    return helpers.summary("01_imperative", {"a": helpers.claim(ratio(), 1.2)}).to_json()


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("machine"), "machine: missing"),
    (lambda d: d.update(schema=99), "schema"),
    (lambda d: d["machine"].update(cores="two"), "machine.cores: expected int"),
    (lambda d: d["machine"].update(cores=True), "machine.cores: expected int, got bool"),
    (lambda d: d.update(created="yesterday"), "created"),
    (lambda d: d["quantities"][0].update(value="4.9"), r"quantities\[0\].value"),
    (lambda d: d["quantities"][0].update(kind="guess"), r"quantities\[0\].kind"),
    (lambda d: d["quantities"][0].update(threshold=None), r"quantities\[0\].threshold"),
    (lambda d: d["quantities"].append(3), r"quantities\[1\]: expected an object"),
    (lambda d: d.update(quantities={}), "quantities: expected list"),
])
def test_bad_records_name_the_field(change, field):
    data = good()
    change(data)
    with pytest.raises(RecordError, match=field):
        record_from_json(data)


def test_a_record_is_not_a_list():
    with pytest.raises(RecordError, match="expected an object"):
        record_from_json([good()])


def test_claim_sig_prints_large_factors_with_three_significant_digits():
    big = Ratio("1 number", "1,000,000 numbers", 1294.67, 1272.68, 1328.89, 400)
    record = helpers.summary("01_imperative", {"1 against a million": helpers.claim_sig(big, 10.0)})
    assert "1 against a million: faster by more than 10.00x, 1290x (1270x to 1330x)" in record.text()
    back = record_from_json(json.loads(json.dumps(record.to_json())))
    assert back.quantities[0].value == 1294.67 and back.quantities[0].threshold == 10.0
    assert record.to_json()["quantities"][0] == helpers.summary("x", {"1 against a million": helpers.claim(big, 10.0)}).to_json()["quantities"][0]


def test_the_machine_line_names_numpy_first():
    from helpers.record import machine
    assert next(iter(machine()["versions"])) == "numpy"
