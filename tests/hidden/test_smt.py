import random
import subprocess
import sys
from collections import defaultdict

import pytest
from conftest import ROOT

from countlo.board import Shape
from countlo.hidden import linear, smt
from countlo.hidden.record import Record, Step, possible_after, record_of


def by_counts(shape, clicks):
    """Every start grouped by the counts it shows: brute force over all 2^cells starts."""
    groups = defaultdict(set)
    for b in range(1 << shape.cells):
        groups[tuple(record_of(shape, b, clicks).counts)].add(b)
    return groups


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 4)])
def test_models_are_exactly_the_consistent_starts(shape):
    rng = random.Random(5)
    seen = set()
    for clicks in (list(range(shape.cells)), [rng.randrange(shape.cells) for _ in range(4)]):
        groups = by_counts(shape, clicks)
        for b in rng.sample(range(1 << shape.cells), 12):
            rec = record_of(shape, b, clicks)
            want = groups[tuple(rec.counts)]
            assert set(smt.models(rec, limit=1 << shape.cells)) == want
            # one count changed to another value the entry checks accept
            i = rng.randrange(1, len(rec.counts))
            before = rec.counts[i - 1]
            for v in possible_after(shape, rec.steps[i - 1].cell, before):
                counts = rec.counts[:i] + [v] + rec.counts[i + 1 :]
                try:
                    bad = Record(shape, counts[0], tuple(Step(s.cell, c) for s, c in zip(rec.steps, counts[1:])))
                except ValueError:
                    continue
                got = set(smt.models(bad, limit=1 << shape.cells))
                assert got == groups.get(tuple(counts), set())
                seen.add(min(len(got), 2))
    assert seen == {0, 1, 2}


def test_z3_agrees_with_linear_on_6x6_and_10x10():
    rng = random.Random(9)
    for shape, n_clicks in ((Shape(6, 6), 20), (Shape(6, 6), 36), (Shape(10, 10), 100), (Shape(10, 10), 40)):
        start = rng.getrandbits(shape.cells)
        clicks = [rng.randrange(shape.cells) for _ in range(n_clicks)]
        rec = record_of(shape, start, clicks)
        a, b = smt.reconstruct(rec), linear.reconstruct(rec)
        assert (a.status, a.board) == (b.status, b.board)
        assert a.status != "contradictory"
        if a.status == "determined":
            assert a.board == start


def test_z3_is_imported_only_when_used():
    code = "import sys, countlo.hidden.rebuild, countlo.hidden.smt, countlo.hidden.linear; print('z3' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
