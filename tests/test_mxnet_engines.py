"""helpers.mxnet_engines: eager against static MXNet under a chosen engine, in a fresh process."""

import pytest

from helpers import frameworks
from helpers.comparison import Comparison
from helpers.mxnet_engines import ENGINES, engine_sweep, share_kept, sweep_script


def test_script_sets_the_engine_before_importing_mxnet():
    source = sweep_script("NaiveEngine", [1, 256], budget=2, min_rounds=6)
    compile(source, "<sweep>", "exec")
    assert source.index('"MXNET_ENGINE_TYPE"] = \'NaiveEngine\'') < source.index("import mxnet")
    assert "for batch in [1, 256]:" in source
    assert "budget=2.0, min_rounds=6" in source


@pytest.mark.parametrize("kwargs, error, word", [
    ({"engine": "Naive"}, ValueError, "engine"),
    ({"batch_sizes": []}, TypeError, "batch_sizes"),
    ({"batch_sizes": "1"}, TypeError, "batch_sizes"),
    ({"batch_sizes": [1, 0]}, ValueError, "batch_sizes"),
    ({"batch_sizes": [1, 1.5]}, TypeError, "batch_sizes"),
    ({"batch_sizes": [4, 4]}, ValueError, "batch_sizes"),
    ({"budget": 0}, ValueError, "budget"),
    ({"min_rounds": 0}, ValueError, "min_rounds"),
])
def test_bad_arguments_name_the_argument(kwargs, error, word):
    args = {"engine": "NaiveEngine", "batch_sizes": [1], "budget": 1.0, "min_rounds": 6} | kwargs
    with pytest.raises(error, match=word):
        sweep_script(**args)


def test_every_engine_is_accepted():
    for engine in ENGINES:
        assert repr(engine) in sweep_script(engine, [1])


def test_share_kept_divides_the_large_batch_saving_by_the_small_one():
    rounds = 12
    times = {"eager 1": [100e-6 + i * 1e-6 for i in range(rounds)], "static 1": [20e-6 + i * 1e-6 for i in range(rounds)],
             "eager 16": [300e-6] * rounds, "static 16": [260e-6] * rounds,  # saves 40 µs: share 0.5 against batch 1
             "eager 256": [400e-6 + i * 2e-6 for i in range(rounds)], "static 256": [380e-6 + i * 2e-6 for i in range(rounds)]}
    cmp = Comparison(times=times, number={label: 10 for label in times})
    share, interval = share_kept(cmp)  # saves 80 µs at batch 1, 20 µs at batch 256, every round
    assert share == pytest.approx(0.25)
    assert interval.low == pytest.approx(0.25) and interval.high == pytest.approx(0.25)
    assert share_kept(cmp, large=16)[0] == pytest.approx(0.5)


@pytest.mark.skipif(not frameworks.is_installed("mxnet"), reason="MXNet is not installed here")
def test_engine_sweep_returns_both_modes_per_batch():
    cmp = engine_sweep("NaiveEngine", [1, 2], budget=0.3, min_rounds=6)
    assert isinstance(cmp, Comparison)
    assert cmp.labels == ["eager 1", "static 1", "eager 2", "static 2"]
    assert cmp.rounds >= 6
    assert all(t > 0 for times in cmp.times.values() for t in times)
