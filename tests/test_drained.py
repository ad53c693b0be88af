"""compare_waits times blocks with and without a wait inside them."""

import time

import pytest

from helpers.drained import compare_waits


class FakeQueue:
    """Calls return at once; the work (a sleep) happens when the queue is drained."""

    def __init__(self, work=0.002):
        self.work, self.queued, self.drains = work, 0, 0

    def call(self):
        self.queued += 1

    def sync(self):
        self.drains += 1
        time.sleep(self.work * self.queued)
        self.queued = 0


def test_a_block_without_the_wait_looks_faster():
    queue = FakeQueue()
    cmp = compare_waits(queue.call, queue.sync, rounds=6, calls=3, labels=("with", "without"))
    assert cmp.labels == ["with", "without"] and cmp.rounds == 6 and cmp.number == {"with": 3, "without": 3}
    assert cmp.median("with") > 0.0015 > cmp.median("without")
    assert cmp.ratio("without", "with").low > 1.5
    assert queue.queued == 0  # drained at the end


def test_bad_arguments_name_the_argument():
    queue = FakeQueue()
    with pytest.raises(TypeError, match="call"):
        compare_waits(None, queue.sync)
    with pytest.raises(TypeError, match="clock"):
        compare_waits(queue.call, queue.sync, clock=None)
    with pytest.raises(ValueError, match="labels"):
        compare_waits(queue.call, queue.sync, labels=("a", "a"))
    with pytest.raises((TypeError, ValueError), match="rounds"):
        compare_waits(queue.call, queue.sync, rounds=0)


def test_the_collector_is_paused_while_a_block_is_timed():
    import gc

    queue = FakeQueue()
    gc_seen = []
    compare_waits(lambda: (gc_seen.append(gc.isenabled()), queue.call()), queue.sync, rounds=4, calls=2)
    assert gc_seen and not any(gc_seen)
