"""What a record tells about the hidden start, computed lazily and cached per decision.

`Knowledge` gives strategies the exact posterior (docs/MATH.md §9), the reconstruction by the
chosen engine, press-set probabilities over consistent starts and a seeded rng, so a strategy
pays only for what it reads.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cached_property

from countlo.board import iter_bits
from countlo.countboard import CountBoard
from countlo.hidden.posterior.choice import Posterior, posterior_of
from countlo.hidden.rebuild import reconstruct
from countlo.hidden.record import Record
from countlo.hidden.result import Reconstruction, Status
from countlo.play.advice import Tally
from countlo.visible.bitsets import fewest_presses, inverse_columns

PRESS_SAMPLES = 48  # posterior samples behind press_probabilities() when boards are many
EXACT_LIMIT = 64  # at most this many consistent boards: use them all instead of samples


class Knowledge:
    """What a record tells about the hidden start, computed lazily and cached.

    `posterior_of` (record -> Posterior) lets a caller share a cache across steps; by default
    a fresh countlo.hidden.posterior.window.Posterior is built. `prior` is `counted` (possible, board,
    tally) of the record without its last step, when known: then a known board stays known (or becomes contradicted)
    by one consistency check, and a click that undoes the click before it (the count must
    return to what it was) leaves the possible boards as they were, both without a posterior.
    """

    def __init__(
        self,
        record: Record,
        engine: str = "exact",
        seed: int | str = 0,
        posterior_of: Callable[[Record], Posterior] | None = None,
        prior: tuple[int, int | None, Tally] | None = None,
    ):
        self.record = record
        self.shape: CountBoard = record.shape
        self.engine = str(getattr(engine, "value", engine))
        self.seed = seed
        self._posterior_of = posterior_of
        self._prior = prior if record.steps else None

    @cached_property
    def posterior(self) -> Posterior:
        """The exact posterior over hidden starts (countlo.hidden.posterior.window.posterior_of)."""
        if self._posterior_of is not None:
            return self._posterior_of(self.record)
        return posterior_of(self.record)

    @cached_property
    def counted(self) -> tuple[int, int | None, Tally]:
        """(number of consistent starts, the start when exactly one, how well the number is
        known), by the chosen engine."""
        shortcut = self._shortcut()
        if shortcut is not None:
            return shortcut
        if self.engine == "exact":
            post = self.posterior
            # the frontier engine's count past ~2^100 boards is an estimate (docs/MATH.md §22)
            tally = Tally.EXACT if getattr(post, "count_exact", True) else Tally.ABOUT
            return post.count, post.board if post.count == 1 else None, tally
        r = self.reconstruction
        status = str(getattr(r.status, "value", r.status))
        if status == "determined":
            return 1, r.board, Tally.EXACT
        if status == "contradictory":
            return 0, None, Tally.EXACT
        # ambiguous: `possible` is a lower bound when the engine stopped counting
        return max(2, r.possible), None, Tally.EXACT if r.possible_exact else Tally.AT_LEAST

    def _shortcut(self) -> tuple[int, int | None, Tally] | None:
        if self._prior is None:
            return None
        n, board, tally = self._prior
        steps = self.record.steps
        if n == 0:
            return 0, None, Tally.EXACT
        if n == 1 and board is not None:
            return (1, board, Tally.EXACT) if self.record.consistent(board) else (0, None, Tally.EXACT)
        if len(steps) >= 2 and steps[-1].cell == steps[-2].cell:
            before = steps[-3].count if len(steps) >= 3 else self.record.start
            return (n, board, tally) if steps[-1].count == before else (0, None, Tally.EXACT)
        return None

    @property
    def possible(self) -> int:
        """Number of hidden starts consistent with the record, by the chosen engine."""
        return self.counted[0]

    @property
    def tally(self) -> Tally:
        """How well `possible` is known: exactly, an estimate, or a lower bound."""
        return self.counted[2]

    @property
    def known(self) -> bool:
        """True when exactly one hidden start fits the record."""
        return self.possible == 1

    @property
    def board(self) -> int | None:
        """The hidden start, when determined."""
        return self.counted[1]

    @cached_property
    def reconstruction(self) -> Reconstruction:
        """reconstruct(record, engine): status, board, number of possible starts."""
        return reconstruct(self.record, self.engine)

    @property
    def status(self) -> Status:
        """The reconstruction status (determined, ambiguous, contradictory) by the chosen engine."""
        return self.reconstruction.status

    @cached_property
    def rng(self) -> random.Random:
        """A generator seeded by the guide's seed and the record, so each decision is reproducible."""
        return random.Random(f"{self.seed}|{self.record.start}|{self.record.steps}")

    @cached_property
    def count_distributions(self) -> list[dict[int, int]]:
        """Per cell: count shown if that cell were clicked now -> number of consistent starts."""
        laws: list[dict[int, int]] = self.posterior.count_distributions()
        return laws

    def distribution(self, cell: int) -> dict[int, int]:
        """Count shown if `cell` were clicked now -> number of consistent starts (cached)."""
        if "count_distributions" in self.__dict__:
            return self.count_distributions[cell]
        cache: dict[int, dict[int, int]] = self.__dict__.setdefault("_distribution", {})
        if cell not in cache:
            cache[cell] = self.posterior.count_distribution(cell)
        return cache[cell]

    @cached_property
    def entropies(self) -> list[float]:
        """Per cell: entropy in bits of the count its click would show (the information it gives)."""
        return [entropy(d) for d in self.count_distributions]

    @cached_property
    def starts(self) -> tuple[list[int], bool]:
        """Consistent starts to reason with: all of them (True) if few, else a uniform sample (False)."""
        few = self.posterior.boards(EXACT_LIMIT)
        if few is not None:
            return list(few), True
        return list(self.posterior.sample(PRESS_SAMPLES, self.rng)), False

    @cached_property
    def press_probabilities(self) -> list[float]:
        """Per cell: P(cell is in the fewest-click press set that clears the lights now).

        Estimated over `starts`; lights now = start xor the cells flipped so far. Starts that
        cannot be cleared contribute nothing.
        """
        starts, _ = self.starts
        hits = [0] * self.shape.cells
        flips = self.record.flips()
        for b in starts:
            p = press_set(self.shape, b ^ flips)
            for k in iter_bits(p or 0):
                hits[k] += 1
        n = max(1, len(starts))
        return [h / n for h in hits]


def entropy(dist: dict[int, int]) -> float:
    """Shannon entropy in bits of a count -> weight table."""
    total = sum(dist.values())
    if total <= 0:
        return 0.0
    return -sum(w / total * math.log2(w / total) for w in dist.values() if w)


def press_set(shape: CountBoard, lights: int) -> int | None:
    """A fewest-click press set taking `lights` to the game's goal (all dark, or all lit under a
    lit target), None if none exists.

    When the press matrix A is invertible over GF(2) (nullity 0, e.g. 6x6) the press set is
    unique and linear in the lights, so it is the xor of precomputed columns of A^-1;
    otherwise the coset is searched (countlo.visible.bitsets.fewest_presses, any rules).
    """
    lights ^= shape.goal  # reaching the goal = clearing the difference from it
    columns = inverse_columns(shape)
    if columns is not None:
        p = 0
        for j in iter_bits(lights):
            p ^= columns[j]
        return p
    found = fewest_presses(shape, lights)
    return None if found is None else found[0]
