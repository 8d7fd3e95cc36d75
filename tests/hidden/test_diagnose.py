import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape
from countlo.errors import BadCellError
from countlo.hidden.diagnose import Fix, diagnose
from countlo.hidden.rebuild import Status, reconstruct
from countlo.hidden.record import Record, Step, possible_after, record_of
from countlo.ui.wording import fix_text


def raw(shape, clicks, counts):
    return (shape, counts[0], [(k, c) for k, c in zip(clicks, counts[1:])])


def entry_ok(shape, clicks, counts):
    try:
        Record(shape, counts[0], tuple(Step(k, c) for k, c in zip(clicks, counts[1:])))
    except ValueError:
        return False
    return True


def brute_fixes(shape, clicks, counts, groups):
    """Every (step, value) whose single change gives counts some start explains (brute force)."""
    out = set()
    for i in range(len(counts)):
        for v in range(shape.cells + 1):
            trial = counts[:i] + [v] + counts[i + 1 :]
            if v != counts[i] and tuple(trial) in groups and entry_ok(shape, clicks, trial):
                out.add((i, v))
    return out


@pytest.mark.parametrize("method", ["restore", "reading", "random"])
def test_fixes_are_exactly_the_single_changes_brute_force_accepts(method):
    s = Shape(3, 3)
    rng = random.Random(len(method))
    clicks = {"restore": [k for k in range(9) for _ in (0, 1)], "reading": list(range(9)),
              "random": [rng.randrange(9) for _ in range(7)]}[method]
    groups = defaultdict(set)
    for b in range(512):
        groups[tuple(record_of(s, b, clicks).counts)].add(b)
    tried = 0
    for b in rng.sample(range(512), 40):
        counts = record_of(s, b, clicks).counts
        i = rng.randrange(len(counts))
        v = rng.choice([x for x in range(10) if x != counts[i]])
        typed = counts[:i] + [v] + counts[i + 1 :]
        if tuple(typed) in groups and entry_ok(s, clicks, typed):
            assert diagnose(raw(s, clicks, typed)) == []  # still consistent: nothing to fix
            continue
        fixes = diagnose(raw(s, clicks, typed))
        assert {(f.step, f.suggested) for f in fixes} == brute_fixes(s, clicks, typed, groups)
        assert all(f.written == typed[f.step] for f in fixes)
        assert Fix(i, v, counts[i]) in fixes
        keys = [(abs(f.written - f.suggested), -f.step) for f in fixes]
        assert keys == sorted(keys)
        tried += 1
    assert tried >= 20


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["restore", "reading"]), st.data())
def test_a_typo_on_6x6_is_found(method, data):
    s = Shape(6, 6)
    clicks = [k for k in range(36) for _ in (0, 1)] if method == "restore" else list(range(36))
    start = data.draw(st.integers(0, s.full))
    counts = record_of(s, start, clicks).counts
    i = data.draw(st.integers(0, len(counts) - 1))
    v = data.draw(st.integers(0, 36).filter(lambda x: x != counts[i]))
    typed = counts[:i] + [v] + counts[i + 1 :]
    if entry_ok(s, clicks, typed):
        rec = Record(s, typed[0], tuple(Step(k, c) for k, c in zip(clicks, typed[1:])))
        if reconstruct(rec, "linear").status is not Status.CONTRADICTORY:
            assert diagnose(rec) == []  # a typo the counts cannot reveal
            return
    fixes = diagnose(raw(s, clicks, typed))
    assert Fix(i, v, counts[i]) in fixes
    for f in fixes[:3]:
        fixed = typed[: f.step] + [f.suggested] + typed[f.step + 1 :]
        rec = Record(s, fixed[0], tuple(Step(k, c) for k, c in zip(clicks, fixed[1:])))
        assert reconstruct(rec, "linear").status is not Status.CONTRADICTORY


def test_two_entry_check_failures_apart_have_no_single_fix():
    s = Shape(3, 3)
    clicks = list(range(9))
    counts = record_of(s, 0b101010101, clicks).counts
    typed = list(counts)
    typed[2] += 1  # parity of the change is wrong at steps 2 and 3 ...
    typed[6] += 1  # ... and at steps 6 and 7
    assert diagnose(raw(s, clicks, typed)) == []


def test_accepts_a_record_and_explains():
    s = Shape(6, 6)
    clicks = [k for k in range(36) for _ in (0, 1)]
    counts = record_of(s, 0x9_1234_5678, clicks).counts
    i = 27  # step 27 is the probe of cell 13 (B3), step 28 its click back
    good = counts[i]
    typed = counts[:i] + [v for v in possible_after(s, 13, counts[i - 1]) if v != good][:1] + counts[i + 1 :]
    fixes = diagnose(raw(s, clicks, typed))
    assert fixes and fixes[0].step in (i, i + 1)
    line = fix_text(s, Fix(i, typed[i], good), clicks)
    assert line == f"step 27 (B3): you typed {typed[i]}; {good} makes every count consistent"
    start_line = fix_text(s, Fix(0, 17, 15), [])
    assert start_line == "the starting count: you typed 17; 15 makes every count consistent"


def test_consistent_record_needs_no_fix_and_bad_cells_are_refused():
    s = Shape(4, 4)
    assert diagnose(record_of(s, 0b1111, [0, 5, 9])) == []
    with pytest.raises(BadCellError, match="step 2"):
        diagnose((s, 3, [(0, 6), (16, 3)]))


def test_an_impossible_starting_count_is_fixed():
    s = Shape(6, 6)
    clicks = list(range(36))
    counts = record_of(s, 0xF_0F0F_0F0F, clicks).counts
    typed = [counts[0] + 20] + counts[1:]  # 36 cells: this start is out of range or breaks step 1
    fixes = diagnose(raw(s, clicks, typed))
    assert [(f.step, f.suggested) for f in fixes] == [(0, counts[0])]
