"""The `adaptive` strategy: learn the hidden board mostly through clicks it needs anyway.

Clicks commute and cancel in pairs. With X the press set that clears the lights now, a click on
a cell of X shrinks X by one and any other click grows it by one, so a game that ends at count 0
takes |X_start| + 2 * W clicks, W being the clicks made outside the then-current X ("wasted").
The strategy therefore minimises the expected W still to come: a click on k costs
1 - P(k in X now) and buys the information of its count, valued at `bit_cost` wasted clicks per
bit of the posterior it removes. When few boards remain they are listed exactly and the choice
looks two or three clicks ahead over that explicit set; each finishing click's count is an
observation too. It stops the moment the start is known (the finish is then X itself). When no
board still possible can be cleared it only narrows them down (the proof needs the board) and
stops when no click tells them apart.

P(k in X) is a parity of the lights (X = M s), estimated from posterior samples, or exact from
the list of consistent boards when it is short; the count distributions are exact.
The |X| + 2W count: docs/MATH.md §14; the score and lookahead: §15; the parity pins: §19.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from countlo.board import Shape, press_masks
from countlo.countboard import CountBoard
from countlo.hidden.posterior.frontier import FrontierPosterior
from countlo.hidden.posterior.sampler import RowSampler, fits
from countlo.hidden.record import Record
from countlo.lru import LRU
from countlo.play.knowledge import Knowledge
from countlo.play.pins import pins
from countlo.play.strategies.beliefs import BeliefProgramme, OutOfNodes, press_sets
from countlo.visible.batch import (
    PressAlgebra,
    algebra,
    bit_rows,
    fewest_press_sets,
    neighbourhood_lit,
    row_ints,
    solvable,
)

SLOW_SAMPLES = 64  # posterior samples (drawn in Python) on boards too wide for the row sampler
EXACT_LAWS = 64  # cells up to which decisions use the exact next-count laws (bench_adaptive.py)


@dataclass(frozen=True)
class Tuning:
    """The knobs of the adaptive score (tuned on seeds 10000+, never on the benchmark's)."""

    bit_cost: float = 0.5  # wasted clicks one bit of information is worth, boards sampled
    list_bit_cost: float = 0.5  # the same once the boards are listed (the lookahead's leaves)
    exact_limit: int = 4096  # list the consistent boards when at most this many remain
    samples: int = 384  # posterior samples when more remain
    lookahead: tuple[tuple[int, int], ...] = ((64, 3), (4096, 2))  # (at most n boards listed, clicks
    # looked ahead); one click over longer lists
    width: int = 6  # candidate clicks searched at each level of the lookahead
    pin_weight: float = 2.0  # boards sampled: wasted clicks a unit of pin bonus is worth (0: off)
    endgame: int = 256  # boards listed up to which the exact programme is tried (0: off)
    endgame_work: int = 400_000  # its budget per decision, boards searched x the board's clicks
    # (counted, not timed, so seeded games replay the same; about 40 ms of CPU on 6x6: MATH §28)


@dataclass
class View:
    """What a decision rests on: boards as lights now (one 0/1 row each) and how many starts remain."""

    lights: np.ndarray  # boards x cells, uint8
    total: int  # consistent starts (exact)
    exact: bool  # True if `lights` lists every consistent board, else a uniform sample
    counts: list[dict[int, int]] | None = None  # exact count distribution per cell, if known
    clicked: frozenset[int] = frozenset()  # cells clicked at least once (their parities are known)


def outcome_entropy(outcomes: np.ndarray) -> np.ndarray:
    """Entropy in bits of each column's value distribution (a click's count, per cell)."""
    m = outcomes.shape[0]
    h = np.zeros(outcomes.shape[1])
    for v in np.unique(outcomes):
        c = (outcomes == v).sum(axis=0)
        p = c[c > 0] / m
        h[c > 0] -= p * np.log2(p)
    return h


def distribution_entropy(dists: list[dict[int, int]]) -> np.ndarray:
    """Entropy in bits of each cell's exact count distribution (boards per count)."""
    out = np.zeros(len(dists))
    for k, d in enumerate(dists):
        total = sum(d.values())
        out[k] = -sum(n / total * math.log2(n / total) for n in d.values() if n)
    return out


def in_press_set(alg: PressAlgebra, lights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P(cell in X) over the solvable boards, mask of solvable boards); X = fewest press set."""
    ok = solvable(alg, lights)
    if not ok.any():
        return np.zeros(lights.shape[1]), ok
    x = fewest_press_sets(alg, lights[ok])
    return x.mean(axis=0), ok


def _waste_to_come(alg: PressAlgebra, lights: np.ndarray, bits: float, depth: int,
                   t: Tuning) -> tuple[float, int | None]:
    """(expected wasted clicks still to come, best cell) over an explicit, uniform set of boards.

    Leaves are valued at bit_cost per bit of the boards still possible (`bits` = log2 of how
    many starts they stand for); a single board, or boards none of which can be cleared, cost 0.
    """
    m = lights.shape[0]
    if bits <= 1e-9 and m == 1:
        return 0.0, None
    p, ok = in_press_set(alg, lights)
    if not ok.any():
        return 0.0, None
    outcomes = neighbourhood_lit(alg, lights)
    h = outcome_entropy(outcomes)
    waste = (1.0 - p) * ok.mean()
    score = waste + t.list_bit_cost * (bits - h)
    order = np.lexsort((-h, score))  # best score first, more informative first on ties
    if depth <= 1:
        k = int(order[0])
        return float(score[k]), k
    best, best_k = math.inf, None
    for k in order[: t.width]:
        k = int(k)
        value = float(waste[k])
        col = outcomes[:, k]
        flip = alg.A[k].astype(np.uint8)
        for o in np.unique(col):
            rows = col == o
            mo = int(rows.sum())
            sub_bits = bits + math.log2(mo / m)
            if mo == 1 and sub_bits < 0.5:
                continue
            value += mo / m * _waste_to_come(alg, lights[rows] ^ flip, sub_bits, depth - 1, t)[0]
            if value >= best:
                break
        if value < best - 1e-12:
            best, best_k = value, k
    return best, best_k


def endgame(alg: PressAlgebra, t: Tuning) -> BeliefProgramme | None:
    """The exact programme over listed boards (docs/MATH.md §20.1), for an invertible A only:
    there every board has one press set, the X of the |X| + 2W count."""
    if not t.endgame or not alg.invertible:
        return None
    return BeliefProgramme(press_masks(alg.shape), press_sets(alg), t.endgame_work)


def choose(alg: PressAlgebra, view: View, t: Tuning = Tuning(),
           exact: BeliefProgramme | None = None) -> int | None:
    """The cell to click next; None if the start is known, or if no possible board can be cleared
    and no click tells them apart (when none can be cleared it pins the board, for the proof).
    With `exact` (see `endgame`) a short list is first searched exactly, within its budget."""
    if view.total <= 1:
        return None
    bits = math.log2(view.total)
    if view.exact:
        if not solvable(alg, view.lights).any():  # lost anyway: pin the board for the proof
            h = outcome_entropy(neighbourhood_lit(alg, view.lights))
            return int(np.argmax(h)) if h.max() > 1e-12 else None
        if exact is not None and view.total <= t.endgame:
            try:
                return exact.choice(frozenset(row_ints(view.lights)))
            except OutOfNodes:
                pass
        depth = next((d for most, d in t.lookahead if view.total <= most), 1)
        return _waste_to_come(alg, view.lights, bits, depth, t)[1]
    if view.counts is not None:
        h = distribution_entropy(view.counts)
    else:
        h = outcome_entropy(neighbourhood_lit(alg, view.lights))
    score = -t.bit_cost * h
    found = pins(alg.shape) if t.pin_weight else None
    if found is not None:  # steer toward supports that pin a target (docs/MATH.md §19)
        score = score - t.pin_weight * found.bonus(view.clicked)
        score[h <= 1e-12] = math.inf  # a bonus never buys a click that tells nothing
    if view.lights.shape[0]:
        p, ok = in_press_set(alg, view.lights)
        score = score + (1.0 - p) * ok.mean()
    return int(np.lexsort((-h, score))[0])


class Adaptive:
    """The `adaptive` strategy object for one game on one shape (see module docstring).

    Per record it keeps a row sampler (built from the previous record's by adding one equation)
    and, once few boards remain, their explicit list, filtered by each new count.
    """

    name = "adaptive"
    asks = False
    KEEP = 64  # board lists remembered (undo and re-advice hit them)
    KEEP_SAMPLERS = 3  # row samplers remembered (each holds a few MB of tables)

    def __init__(self, shape: CountBoard, tuning: Tuning = Tuning(), name: str = "adaptive"):
        self.name = name
        self.shape = shape
        self.tuning = tuning
        self.algebra = algebra(shape)
        self.rows = isinstance(shape, Shape) and fits(shape)  # the row sampler runs on grids only
        self._exact = endgame(self.algebra, tuning)
        self._samplers: LRU[Record, RowSampler] = LRU(self.KEEP_SAMPLERS)
        self._listed: LRU[Record, np.ndarray] = LRU(self.KEEP)

    def next_click(self, record: Record, knowledge: Knowledge) -> int | None:
        """The next probe, or None once the start is known (the finish is then the press set)."""
        if record.count == 0 or knowledge.possible <= 1:
            return None
        return choose(self.algebra, self.view(record, knowledge), self.tuning, self._exact)

    def view(self, record: Record, knowledge: Knowledge) -> View:
        """The boards this decision rests on: listed if at most exact_limit remain, else sampled."""
        t = self.tuning
        total = knowledge.posterior.count
        flips = bit_rows([record.flips()], self.shape.cells)[0]
        if total <= t.exact_limit:
            lights = self._list(record, knowledge, total, flips)
            return View(lights, total, True)
        rng = np.random.default_rng(knowledge.rng.getrandbits(64))
        post = knowledge.posterior
        if self.rows:
            starts = self._sampler(record).sample(t.samples, rng)
        elif isinstance(post, FrontierPosterior):  # it draws samples fast
            starts = post.sample_matrix(t.samples, rng)
        else:
            n = min(t.samples, SLOW_SAMPLES)
            starts = bit_rows(post.sample(n, knowledge.rng), self.shape.cells)
        # exact laws cost one side pass per cell: above EXACT_LAWS cells the samples' do
        counts = knowledge.count_distributions if self.shape.cells <= EXACT_LAWS else None
        clicked = frozenset(s.cell for s in record.steps)
        return View(starts ^ flips, total, False, counts, clicked)

    def _list(self, record: Record, knowledge: Knowledge, total: int, flips: np.ndarray) -> np.ndarray:
        """Lights now of every consistent start: the parent's list filtered by the last count if known."""
        lights = self._listed.get(record)
        if lights is None and record.steps:
            parent = self._listed.get(record.undo())
            if parent is not None:
                step = record.steps[-1]
                moved = parent ^ self.algebra.A[step.cell].astype(np.uint8)
                lights = moved[moved.sum(axis=1) == step.count]
        if lights is None or lights.shape[0] != total:
            if self.rows:
                starts = self._sampler(record).boards(total)
            else:
                listed = knowledge.posterior.boards(total)
                if listed is None:  # total is the posterior's own count, so it always lists them
                    raise ValueError(f"expected at most {total} consistent starts")
                starts = bit_rows(listed, self.shape.cells)
            lights = starts ^ flips
        return self._listed.put(record, lights)

    def _sampler(self, record: Record) -> RowSampler:
        """The row sampler of `record`, extending the previous record's when it is remembered."""
        found = self._samplers.get(record)
        if found is None:
            parent = self._samplers.get(record.undo()) if record.steps else None
            found = self._samplers.put(record, RowSampler(record, parent))
        return found


BASELINE = Tuning(pin_weight=0.0, endgame=0)  # the adaptive strategy before parity pins (issue 14's baseline)


def adaptive_v1(shape: CountBoard) -> Adaptive:
    """The adaptive strategy without the pin bonus, kept as the baseline it is measured against."""
    return Adaptive(shape, BASELINE, "adaptive-v1")
