"""The split engine (meet in the middle) gives exactly the window programme's posterior and
brute force's on small boards under other rules: counts, marginals, next-count laws, boards."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from brute import BrutePosterior, random_records

from countlo.board import Shape
from countlo.hidden.posterior.choice import posterior_of
from countlo.hidden.posterior.split import SPLIT_BYTES, SPLIT_CELLS, SplitPosterior, fits, split_bytes
from countlo.hidden.posterior.window import WindowPosterior
from countlo.hidden.record import Record, Step, record_of
from countlo.rules import Rule, Rules

BOARDS = [("torus", "plus", 3, 4), ("klein", "knight", 4, 4), ("projective", "x", 4, 3),
          ("moebius", "ring", 3, 5), ("torus", "x", 4, 4), ("cylinder", "star", 3, 4),
          ("plane", "knight", 3, 5), ("plane", "plus", 4, 4), ("klein", "plus", 1, 5)]


def records(shape: Shape, n: int, seed: int):
    return random_records(shape, n, seed, 9)


@pytest.mark.parametrize("topology, rule, rows, cols", BOARDS)
def test_split_equals_the_window_programme_and_brute_force(topology, rule, rows, cols):
    shape = Shape(rows, cols, Rules.make(topology, rule))
    for rec in records(shape, 5, rows * cols):
        split, window, brute = SplitPosterior(rec), WindowPosterior(rec), BrutePosterior(rec)
        assert split.count == window.count == brute.count
        assert split.board == window.board
        # the same exact integers divided by the same count: equal floats
        assert split.start_marginals() == window.start_marginals()
        assert split.light_marginals() == window.light_marginals()
        assert split.count_distributions() == window.count_distributions()
        for cell in range(shape.cells):
            want = {c: w for c, w in brute.count_distribution(cell).items() if w}
            assert split.count_distribution(cell) == want
        assert split.boards(brute.count) == sorted(brute.starts)
        assert split.boards(brute.count - 1) is None or brute.count == 0


def test_samples_are_consistent_and_cover_every_start():
    shape = Shape(4, 4, Rules.make("klein", "knight"))
    rec = record_of(shape, 0b1011_0010_0110_1001, [0, 5, 10, 15, 3, 6, 9])
    split = SplitPosterior(rec)
    assert 1 < split.count <= 64
    drawn = Counter(split.sample(40 * split.count, random.Random(3)))
    assert set(drawn) == set(split.boards(split.count))
    assert all(rec.consistent(b) for b in drawn)


def test_a_contradictory_record_gives_zero_and_empty_answers():
    shape = Shape(3, 4, Rules.make("torus", "x"))
    rec = record_of(shape, 0b1010_0110_0101, [0])
    n = rec.start
    # clicking the same cell twice restores the start: any other count contradicts it
    after = n + 2 if n + 2 <= shape.cells else n - 2
    bad = Record(shape, n, rec.steps + (Step(0, after),))
    split = SplitPosterior(bad)
    assert split.count == 0 and split.board is None
    assert split.start_marginals() == [0.0] * shape.cells
    assert split.light_marginals() == [0.0] * shape.cells
    assert split.count_distributions() == [{}] * shape.cells
    assert split.boards(10) == [] and split.sample(5, random.Random(1)) == []


def test_a_board_of_36_cells_matches_the_window_programme():
    """The largest split board, against the window programme where its window is narrow."""
    shape = Shape(6, 6, Rules.make("cylinder", "plus"))
    for rec in records(shape, 2, 5):
        split, window = SplitPosterior(rec), WindowPosterior(rec)
        assert split.count == window.count
        assert split.start_marginals() == window.start_marginals()
        assert split.count_distributions() == window.count_distributions()


def test_posterior_of_takes_the_split_engine_for_small_boards_under_other_rules():
    assert isinstance(posterior_of(record_of(Shape(5, 5, Rules.make("klein", "knight")), 7, [3])),
                      SplitPosterior)
    assert isinstance(posterior_of(record_of(Shape(6, 6, Rules.make("projective", "x")), 7, [3])),
                      SplitPosterior)
    assert not fits(Shape(6, 6))  # the classic game keeps its own engines
    assert isinstance(posterior_of(record_of(Shape(5, 5), 7, [3])), WindowPosterior)
    assert not fits(Shape(6, 7, Rules.make("torus")))
    # the guide bounds its cache of posteriors by what they keep
    rec = record_of(Shape(6, 6, Rules.make("torus")), 12345, [1, 2, 3])
    split = SplitPosterior(rec)
    assert split.nbytes == sum(a.nbytes for a in (split._a, split._b, split._ga, split._gb, split._ca,
                                                  split._cb, split._cum, split._first_a, split._first_b))
    assert WindowPosterior(rec).nbytes > 0


def test_the_split_engine_stops_at_its_stated_size():
    knight = Shape(6, 6, Rules.make("klein", "knight"))  # |N(k)| = 9: laws of 10 values
    assert split_bytes(knight) == (64 + 16 * 10) * 2 * (1 << 18) <= SPLIT_BYTES
    assert fits(knight)
    with pytest.raises(ValueError, match=f"at most {SPLIT_CELLS} cells"):
        SplitPosterior(record_of(Shape(6, 7, Rules.make("torus")), 0, []))
    # a drawn 7x7 rule on 36 cells: laws of up to 37 values pass the byte budget
    block = Rule.from_text("\n".join(["#" * 7] * 3 + ["###O###"] + ["#" * 7] * 3) + "\n")
    wide = Shape(6, 6, Rules("plane", block))
    assert split_bytes(wide) > SPLIT_BYTES and not fits(wide)
    with pytest.raises(ValueError, match=f"{SPLIT_BYTES >> 20} MB"):
        SplitPosterior(record_of(wide, 0, []))


def test_the_stated_peak_covers_the_measured_one():
    """tracemalloc sees numpy's allocations: the engine's peak on the widest named rule stays
    below split_bytes (a correctness check of the bound, not a timing)."""
    import tracemalloc

    shape = Shape(6, 6, Rules.make("klein", "knight"))
    rng = random.Random(2)
    for length in (0, 3, 10):
        rec = record_of(shape, rng.getrandbits(36), [rng.randrange(36) for _ in range(length)])
        tracemalloc.start()
        try:
            split = SplitPosterior(rec)
            split.count_distributions()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= split_bytes(shape)


def _dense_record():
    """A classic 6x6 record whose laws take the dense tables (found by trying random records)."""
    return record_of(Shape(6, 6), 0x2F3B37F32, [17, 18, 29, 20, 31, 30, 7, 1, 19, 24, 21])


def test_dense_law_tables_stay_within_their_byte_budget(monkeypatch):
    import sys

    # the module WindowPosterior came from (other tests may import countlo afresh)
    post = sys.modules[WindowPosterior.__module__]
    DENSE_BYTES, Tables, SparseTables = post.DENSE_BYTES, post.Tables, post.SparseTables
    dense_peak_bytes = post.dense_peak_bytes
    monkeypatch.setattr(post, "DENSE_SWITCH", 0.0)  # dense wherever the byte budget allows
    rec = _dense_record()
    peak = dense_peak_bytes(rec.shape, rec.start)
    assert peak <= DENSE_BYTES
    free = WindowPosterior(rec)
    assert isinstance(free._law_tables(), Tables)
    monkeypatch.setattr(post, "DENSE_BYTES", peak - 1)
    bounded = WindowPosterior(rec)
    assert isinstance(bounded._law_tables(), SparseTables)
    assert bounded.count_distributions() == free.count_distributions()
    assert bounded.start_marginals() == free.start_marginals()
    # a 5x5 Klein bottle under the knight rule: 24 window cells, a dense step of 1.7 GB
    wide = Shape(5, 5, Rules.make("klein", "knight"))
    assert dense_peak_bytes(wide, 12) > 3 * DENSE_BYTES


def test_window_caches_hold_at_most_their_byte_budget():
    import numpy as np

    from countlo.hidden.posterior.dense import CACHE_BYTES, Cache

    cache = Cache()
    big = np.zeros(CACHE_BYTES // 4, dtype=np.uint8)
    assert cache.put("big", big) is big and cache.get("big") is None  # too large to keep
    small = CACHE_BYTES // 16
    for i in range(40):
        cache.put(i, np.zeros(small, dtype=np.uint8))
        assert cache.nbytes <= CACHE_BYTES
        assert sum(a.nbytes for a in cache.items.values()) == cache.nbytes
    assert cache.get(39) is not None


def test_sparse_tables_past_their_byte_budget_are_refused_in_one_line(monkeypatch, capsys):
    import countlo.hidden.posterior.sparse as sparse
    from countlo.cli import main

    shape = Shape(7, 7, Rules.make("moebius", "plus"))
    rec = record_of(shape, 0x1_2345_6789_ABCD, [3, 17, 24, 40, 9])
    assert WindowPosterior(rec).count > 0
    monkeypatch.setattr(sparse, "TABLE_BYTES", 1 << 12)
    with pytest.raises(sparse.TablesTooLarge, match=r"would pass 0 MB.*at most 36 cells usually fits"):
        WindowPosterior(rec)
    monkeypatch.setattr(sparse, "TABLE_BYTES", 1 << 20)
    code = main(["simulate", "--size", "7x7", "--topology", "moebius", "--games", "1", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "would pass 1 MB" in err and len(err.strip().splitlines()) == 1


def test_a_board_the_window_refused_is_now_played_to_the_end(capsys):
    """6x6 projective plane, x rule: the window would hold 29 cells (refused before); the split
    engine follows the game."""
    import json

    from countlo.cli import main

    assert main(["simulate", "--size", "6x6", "--topology", "projective", "--rule", "x", "--games", "1",
                 "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["failed"] == 0 and out["solved"] + out["unsolvable"] == 1
