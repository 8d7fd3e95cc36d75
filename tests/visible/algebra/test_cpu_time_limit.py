"""`--time-limit` counts CPU seconds, not wall-clock ones (issue 26, item 9): on a loaded machine
the wall clock runs on while the search waits for a core, and a proof that needs 9 s of CPU must
not stop at 60 s of wall time. The wall clock is faked here to race ahead (or stand still);
the searches must not notice either way."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from countlo.visible.algebra import coset_radix, coset_walsh

NULLITY, CELLS = 12, 40


@pytest.fixture
def racing_wall_clock(monkeypatch):
    """time.monotonic and time.time jump an hour at every call: a machine busy with other work."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "monotonic", lambda: 3600.0 * next(ticks))
    monkeypatch.setattr(time, "time", lambda: 3600.0 * next(ticks))


@pytest.fixture
def frozen_wall_clock(monkeypatch):
    monkeypatch.setattr(time, "monotonic", lambda: 0.0)
    monkeypatch.setattr(time, "time", lambda: 0.0)


def _coset(seed: int) -> tuple[int, list[int]]:
    rng = random.Random(seed)
    return rng.getrandbits(CELLS), [rng.getrandbits(CELLS) for _ in range(NULLITY)]


def _brute(x: int, basis: list[int]) -> int:
    return min((x ^ m).bit_count() for m in coset_walsh.span_members(basis))


def test_walsh_search_is_not_stopped_by_wall_clock_time(monkeypatch, racing_wall_clock):
    monkeypatch.setattr(coset_walsh, "LO_BITS", 4)  # 2^8 chunks: the limit is checked after each
    x, basis = _coset(1)
    r = coset_walsh.lightest(x, basis, CELLS, time_limit=600.0)
    assert not r.stopped and r.exact and r.weight == _brute(x, basis)


def test_walsh_search_stops_on_cpu_time_with_the_wall_clock_frozen(monkeypatch, frozen_wall_clock):
    monkeypatch.setattr(coset_walsh, "LO_BITS", 4)
    x, basis = _coset(2)
    r = coset_walsh.lightest(x, basis, CELLS, time_limit=1e-6)
    assert r.stopped and r.lower_bound <= _brute(x, basis) <= r.weight


def _zk_coset(seed: int, k: int = 3) -> tuple[list[int], list[tuple[list[int], int]]]:
    rng = random.Random(seed)
    x = [rng.randrange(k) for _ in range(CELLS)]
    return x, [([rng.randrange(k) for _ in range(CELLS)], k) for _ in range(8)]


def test_radix_search_is_not_stopped_by_wall_clock_time(racing_wall_clock):
    x, gens = _zk_coset(3)
    r = coset_radix.lightest(x, gens, 3, time_limit=600.0, lo_members=3)
    want = min(sum((a + sum(c * g[j] for c, (g, _) in zip(cs, gens))) % 3 for j, a in enumerate(x))
               for cs in itertools.product(range(3), repeat=len(gens)))
    assert not r.stopped and r.exact and r.weight == want


def test_radix_search_stops_on_cpu_time_with_the_wall_clock_frozen(frozen_wall_clock):
    x, gens = _zk_coset(4)
    r = coset_radix.lightest(x, gens, 3, time_limit=1e-6, lo_members=3)
    assert r.stopped and r.lower_bound <= r.weight
