"""Which single mistake explains counts that contradict each other, ranked by likelihood.

A player beside the real game makes three kinds of mistake: a count typed wrong (a `Fix`), a
click on a cell next to the one meant (`OtherCell`: the real page's buttons have no names), and a
click that did not register, so the count typed is the count before it (`Missed`). Each
candidate is kept when the record with it undone is consistent, and weighed by Bayes' rule with
a uniform prior over hidden starts: P(mistake | counts) is proportional to P(mistake) times the
number of starts the corrected record leaves (each start gives its counts with certainty).
(docs/MATH.md §26)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from countlo.board import Shape
from countlo.countboard import CountBoard, PressBoard
from countlo.errors import BadCountError
from countlo.hidden.diagnose import Fix, RawRecord, diagnose
from countlo.hidden.record import Record, Step

TYPO = 0.02  # a count typed wrong, per count
CLICK = 0.02  # a click on a cell next to the one meant, per click (shared by its neighbours)
MISSED = 0.02  # a click that did not register, per click whose count did not change
SLIP = {2: 1.0, 4: 0.25}  # a typo's size: one step of the count (±2) is the commonest slip
FAR_SLIP = 0.05  # any other size
ON_SCREEN = 0.5  # the newest count is still on the game's screen, so the player can read it again
START = 0.2  # the starting count may be another board's (an early server sent one): any size
CORRECTED = 10  # a step corrected before (by the player's fix or answer) is a suspect again
NEAR_LIMIT = 100  # past this many cells only the newest click is searched for another cell


@dataclass(frozen=True)
class OtherCell:
    """Step `step`'s click was on `clicked`, next to `typed` (the cell the record names)."""

    step: int
    typed: int
    clicked: int


@dataclass(frozen=True)
class Missed:
    """Step `step`'s click on `cell` did not register: the count typed was the count before it."""

    step: int
    cell: int


@dataclass(frozen=True)
class StartAside:
    """The starting count `written` is set aside: the later counts fit `likeliest` best (the
    first published game server sent another board's count; a player can mistype it too)."""

    written: int
    likeliest: int
    step: ClassVar[int] = 0


Mistake = Fix | OtherCell | Missed | StartAside


@dataclass(frozen=True)
class Suspect:
    """A mistake that explains the counts, with its probability among the suspects found and
    the number of starts the corrected record leaves."""

    mistake: Mistake
    chance: float
    boards: int


def near(shape: CountBoard, cell: int) -> list[int]:
    """The cells around `cell` on the grid (the eight a hand can slip to), in reading order. On a
    grid with holes (Merlin's square too) the lights in the eight cells around it; on a graph or
    a table, which has no places, the other lights its click changes (docs/MATH.md §30)."""
    if isinstance(shape, Shape):
        r, c = divmod(cell, shape.cols)
        return [rr * shape.cols + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c) and 0 <= rr < shape.rows and 0 <= cc < shape.cols]
    assert isinstance(shape, PressBoard)
    grid = shape.grid
    if grid is None:
        return [j for j in shape.neighbours(cell) if j != cell]
    places = shape.places
    light = {p: i for i, p in enumerate(places)}
    return sorted(light[g] for g in near(grid, places[cell]) if g in light)


def corrected(raw: RawRecord, mistake: Mistake) -> Record:
    """The record with `mistake` undone; BadCountError if it fails the entry checks."""
    shape, start, given = raw
    steps = [s if isinstance(s, Step) else Step(*s) for s in given]
    if isinstance(mistake, StartAside):
        start = mistake.likeliest
    elif isinstance(mistake, Fix):
        if mistake.step == 0:
            start = mistake.suggested
        else:
            steps[mistake.step - 1] = Step(steps[mistake.step - 1].cell, mistake.suggested)
    elif isinstance(mistake, OtherCell):
        steps[mistake.step - 1] = Step(mistake.clicked, steps[mistake.step - 1].count)
    else:
        del steps[mistake.step - 1]
    return Record(shape, start, tuple(steps))


def prior(mistake: Mistake, newest: int) -> float:
    """P(mistake) before the counts are weighed (`newest`: the step whose count is on screen)."""
    if isinstance(mistake, Fix):
        size = abs(mistake.written - mistake.suggested)
        slip = SLIP.get(size, FAR_SLIP)
        if mistake.step == 0:
            slip = max(slip, START)
        return TYPO * slip * (ON_SCREEN if mistake.step == newest else 1.0)
    if isinstance(mistake, OtherCell):
        return CLICK  # divided among the neighbours below, once their number is known
    if isinstance(mistake, StartAside):
        return TYPO * START
    return MISSED


def candidates(raw: RawRecord, trust_last: bool = False) -> list[Mistake]:
    """Every single mistake worth weighing (not yet checked for consistency but for typos)."""
    shape, start, given = raw
    steps = [s if isinstance(s, Step) else Step(*s) for s in given]
    m = len(steps)
    out: list[Mistake] = [f for f in diagnose(raw) if not (trust_last and f.step == m)]
    first = 1 if shape.cells <= NEAR_LIMIT else m
    counts = [start] + [s.count for s in steps]
    for i in range(max(first, 1), m + 1):
        out += [OtherCell(i, steps[i - 1].cell, x) for x in near(shape, steps[i - 1].cell)]
        if counts[i] == counts[i - 1]:
            out.append(Missed(i, steps[i - 1].cell))
    return out


def explain(raw: RawRecord, boards: Callable[[Record], int], trust_last: bool = False,
            most: int | None = None, corrected_steps: frozenset[int] = frozenset()) -> list[Suspect]:
    """The single mistakes that make `raw` consistent, likeliest first (see module docstring).

    `boards(record)` counts the starts a record leaves (the caller's engine and cache);
    `trust_last`: the player insisted on the newest count, so it is not a suspect;
    `corrected_steps`: steps corrected before, whose correction may itself be the mistake.
    """
    shape, _start, given = raw
    newest = len(given)
    weighed: list[tuple[float, int, Mistake]] = []
    for mistake in candidates(raw, trust_last):
        try:
            record = corrected(raw, mistake)
        except BadCountError:
            continue
        n = boards(record)
        if n <= 0:
            continue
        p = prior(mistake, newest)
        if isinstance(mistake, OtherCell):
            p /= len(near(shape, mistake.typed))
        if mistake.step in corrected_steps:
            p *= CORRECTED
        weighed.append((p * n, n, mistake))
    weighed = _start_aside(weighed)
    total = sum(w for w, _n, _m in weighed) or 1.0
    weighed.sort(key=lambda t: (-t[0], _order(t[2])))
    found = [Suspect(m, w / total, n) for w, n, m in weighed]
    return found if most is None else found[:most]


def _start_aside(weighed: list[tuple[float, int, Mistake]]) -> list[tuple[float, int, Mistake]]:
    """Every changed starting count as one suspect, the start set aside: its chance is their sum
    (the later counts alone, without the start's, decide among them; docs/MATH.md §26)."""
    starts = [(w, n, m) for w, n, m in weighed if isinstance(m, Fix) and m.step == 0]
    if not starts:
        return weighed
    fixes = [(n, m) for _w, n, m in starts if isinstance(m, Fix)]
    best = max(fixes, key=lambda t: (t[0], -abs(t[1].suggested - t[1].written)))[1]
    rest = [t for t in weighed if not (isinstance(t[2], Fix) and t[2].step == 0)]
    n = sum(t[1] for t in starts)
    return [*rest, (TYPO * START * n, n, StartAside(best.written, best.suggested))]


def _order(mistake: Mistake) -> tuple[int, int, int]:
    """A fixed tie-break: later steps first, then typos, other cells, missed clicks."""
    kind = 0 if isinstance(mistake, Fix) else 1 if isinstance(mistake, OtherCell) else 2
    value = mistake.suggested if isinstance(mistake, Fix) else mistake.clicked if isinstance(
        mistake, OtherCell) else 0
    if isinstance(mistake, StartAside):
        return 0, 3, mistake.likeliest
    return -mistake.step, kind, value


def raw_of(record: Record, extra: Sequence[Step] = ()) -> RawRecord:
    """A checked record, with steps after it that may fail the entry checks, as a RawRecord."""
    return record.shape, record.start, tuple(record.steps) + tuple(extra)
