"""What is left of a game, as facts for the session: about how many clicks are still to come, and
which cells the finish needs (or never needs) whatever the hidden board turns out to be.

A game ending at the goal takes |X| + 2 W more clicks, X the press set clearing the lights now and
W the clicks still to be made outside the press set then needed (docs/MATH.md §14). `to_go`
estimates that as the mean |X| over the consistent boards plus 2 x WASTE_PER_BIT per bit still
unknown (docs/MATH.md §25; the rate c is measured by bench/bench_outlook.py). It is an estimate and
the session says so.

`needed` / `spared` are cells whose membership of X is the same for every consistent board, so
they are facts, not estimates: with at most LIST_LIMIT boards left they are read off the list of
all of them; with more, from the count parities alone (docs/MATH.md §19, countlo.play.pins), whose
pinned cells are settled for every consistent board, so one sampled board gives their value.
Shapes whose press matrix is singular get no marks (press sets are then not unique).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from countlo.countboard import CountBoard
from countlo.play.knowledge import Knowledge, press_set
from countlo.play.pins import pins

LIST_LIMIT = 4096  # at most this many boards left: list them all, every mark is exact
WASTE_PER_BIT = 0.21  # clicks outside the press set still to come per bit unknown (§25, measured)


@dataclass(frozen=True)
class Outlook:
    """Clicks still to come (estimated unless `known`) and the cells settled in or out of X."""

    to_go: float  # expected clicks still to come, estimated (exact when `known`)
    needed: frozenset[int]  # cells in the press set for every consistent board
    spared: frozenset[int]  # cells in it for none
    known: bool = False  # the board is known: `to_go` is exact and the marks are the press set

    @property
    def rounded(self) -> int:
        """`to_go` as a whole number of clicks, for people."""
        return max(0, round(self.to_go))


def _settled(shape: CountBoard, presses: list[int]) -> tuple[frozenset[int], frozenset[int]]:
    """(cells in every press set, cells in none) over a list of press sets."""
    every, some = (1 << shape.cells) - 1, 0
    for x in presses:
        every &= x
        some |= x
    full = (1 << shape.cells) - 1
    return _cells(every), _cells(full & ~some)


def _cells(pattern: int) -> frozenset[int]:
    return frozenset(k for k in range(pattern.bit_length()) if pattern >> k & 1)


def outlook(knowledge: Knowledge) -> Outlook:
    """The outlook of the game `knowledge` describes (see the module docstring)."""
    shape, record = knowledge.shape, knowledge.record
    flips = record.flips()
    invertible = pins(shape) is not None
    board = knowledge.board
    if board is not None:
        x = press_set(shape, board ^ flips)
        if x is None:  # cannot be cleared: nothing sensible to count
            return Outlook(0.0, frozenset(), frozenset(), True)
        needed, spared = _settled(shape, [x])
        return Outlook(float(x.bit_count()), needed, spared, True)
    total = knowledge.possible
    listed = knowledge.posterior.boards(LIST_LIMIT) if total <= LIST_LIMIT else None
    starts = listed if listed is not None else knowledge.starts[0]
    presses = [x for x in (press_set(shape, b ^ flips) for b in starts) if x is not None]
    mean = sum(x.bit_count() for x in presses) / len(presses) if presses else 0.0
    to_go = mean + 2 * WASTE_PER_BIT * math.log2(max(1, total))
    if not invertible or not presses:
        return Outlook(to_go, frozenset(), frozenset())
    if listed is not None:
        needed, spared = _settled(shape, presses)
        return Outlook(to_go, needed, spared)
    found = pins(shape)
    assert found is not None
    pinned = found.pinned(s.cell for s in record.steps)
    one = presses[0]  # pinned cells agree on every consistent board (§19): any one tells
    needed = frozenset(t for t in pinned if one >> t & 1)
    spared = frozenset(t for t in pinned if not one >> t & 1)
    return Outlook(to_go, needed, spared)
