"""Strategies: which cell to click next, given the record so far and what it tells.

A strategy is a small object with ``name`` and ``next_click(record, knowledge) -> int | None``;
None means "stop probing" (the board is known, or the strategy has nothing more to offer, or,
for `manual`, "ask the player"). `Knowledge` gives lazy, cached access to the exact posterior,
the reconstruction by the chosen engine, sampled press-set probabilities and a seeded rng, so a
strategy pays only for what it reads. Strategies register by name; `make_strategy(name, shape)`
builds one (countlo.play.adaptive registers `adaptive` when present).
"""

from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable, Protocol

from countlo.board import Shape, iter_bits
from countlo.errors import CountloError
from countlo.hidden.record import Record

PRESS_SAMPLES = 48  # posterior samples behind press_probabilities() when boards are many
EXACT_LIMIT = 64  # at most this many consistent boards: use them all instead of samples
PLUGINS = ("countlo.play.adaptive",)  # modules that may register more strategies


class UnknownStrategyError(CountloError, ValueError):
    """A strategy name that is not registered."""


class Knowledge:
    """What a record tells about the hidden start, computed lazily and cached.

    `posterior_of` (record -> Posterior) lets a caller share a cache across steps; by default
    a fresh countlo.hidden.posterior.Posterior is built. `prior` is (possible, board) of the record
    without its last step, when known: then a known board stays known (or becomes contradicted)
    by one consistency check, and a click that undoes the click before it (the count must
    return to what it was) leaves the possible boards as they were, both without a posterior.
    """

    def __init__(
        self,
        record: Record,
        engine: str = "exact",
        seed: int | str = 0,
        posterior_of: Callable[[Record], object] | None = None,
        prior: tuple[int, int | None] | None = None,
    ):
        self.record = record
        self.shape: Shape = record.shape
        self.engine = str(getattr(engine, "value", engine))
        self.seed = seed
        self._posterior_of = posterior_of
        self._prior = prior if record.steps else None

    @cached_property
    def posterior(self):
        """The exact posterior over hidden starts (countlo.hidden.posterior.Posterior)."""
        if self._posterior_of is not None:
            return self._posterior_of(self.record)
        from countlo.hidden.posterior import Posterior

        return Posterior(self.record)

    @cached_property
    def counted(self) -> tuple[int, int | None]:
        """(number of consistent starts, the start when exactly one), by the chosen engine."""
        shortcut = self._shortcut()
        if shortcut is not None:
            return shortcut
        if self.engine == "exact":
            post = self.posterior
            return post.count, post.board if post.count == 1 else None
        r = self.reconstruction
        status = str(getattr(r.status, "value", r.status))
        if status == "determined":
            return 1, r.board
        if status == "contradictory":
            return 0, None
        return max(2, r.possible), None  # ambiguous: `possible` may be a lower bound

    def _shortcut(self) -> tuple[int, int | None] | None:
        if self._prior is None:
            return None
        n, board = self._prior
        steps = self.record.steps
        if n == 0:
            return 0, None
        if n == 1 and board is not None:
            return (1, board) if self.record.consistent(board) else (0, None)
        if len(steps) >= 2 and steps[-1].cell == steps[-2].cell:
            before = steps[-3].count if len(steps) >= 3 else self.record.start
            return (n, board) if steps[-1].count == before else (0, None)
        return None

    @property
    def possible(self) -> int:
        """Number of hidden starts consistent with the record, by the chosen engine."""
        return self.counted[0]

    @property
    def known(self) -> bool:
        """True when exactly one hidden start fits the record."""
        return self.possible == 1

    @property
    def board(self) -> int | None:
        """The hidden start, when determined."""
        return self.counted[1]

    @cached_property
    def reconstruction(self):
        """reconstruct(record, engine): status, board, number of possible starts."""
        from countlo.hidden.reconstruct import reconstruct

        return reconstruct(self.record, self.engine)

    @property
    def status(self):
        """The reconstruction status (determined, ambiguous, contradictory) by the chosen engine."""
        return self.reconstruction.status

    @cached_property
    def rng(self) -> random.Random:
        """A generator seeded by the guide's seed and the record, so each decision is reproducible."""
        return random.Random(f"{self.seed}|{self.record.start}|{self.record.steps}")

    @cached_property
    def count_distributions(self) -> list[dict[int, int]]:
        """Per cell: count shown if that cell were clicked now -> number of consistent starts."""
        return self.posterior.count_distributions()

    def distribution(self, cell: int) -> dict[int, int]:
        """Count shown if `cell` were clicked now -> number of consistent starts (cached)."""
        if "count_distributions" in self.__dict__:
            return self.count_distributions[cell]
        cache = self.__dict__.setdefault("_distribution", {})
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


def press_set(shape: Shape, lights: int) -> int | None:
    """A fewest-click press set clearing `lights`, None if none exists.

    When the press matrix A is invertible over GF(2) (nullity 0, e.g. 6x6) the press set is
    unique and linear in the lights, so it is the xor of precomputed columns of A^-1;
    otherwise countlo.classic.minpress.fewest_presses searches the coset.
    """
    columns = _inverse_columns(shape)
    if columns is not None:
        p = 0
        for j in iter_bits(lights):
            p ^= columns[j]
        return p
    from countlo.classic.minpress import fewest_presses

    found = fewest_presses(shape, lights)
    if isinstance(found, tuple):  # (bitset, exact)
        found = found[0]
    return found


@lru_cache(maxsize=16)
def _inverse_columns(shape: Shape) -> tuple[int, ...] | None:
    """Columns of A^-1 over GF(2) (the presses clearing each single light), None if A is singular."""
    from countlo.classic.solver import solve

    if solve(shape, 0).nullity:
        return None
    return tuple(solve(shape, 1 << j).presses for j in range(shape.cells))


class Strategy(Protocol):
    """Chooses the next click: a cell index, or None to stop probing (or, if `asks`, to ask)."""

    name: str

    def next_click(self, record: Record, knowledge: Knowledge) -> int | None: ...


class Base:
    """Shared stopping rule: every strategy stops the moment the board is known."""

    name = "base"
    asks = False  # True: None means "the player chooses", not "nothing left to try"

    def __init__(self, shape: Shape):
        self.shape = shape

    def next_click(self, record: Record, knowledge: Knowledge) -> int | None:
        if record.count == 0 or knowledge.possible <= 1:
            return None
        return self.choose(record, knowledge)

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        raise NotImplementedError


def _seen(record: Record) -> set[int]:
    return {s.cell for s in record.steps}


class Restore(Base):
    """Click a cell, read, click it back (2 per cell in reading order): reads A b over the integers."""

    name = "restore"

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        if record.steps:
            last = record.steps[-1].cell
            if sum(s.cell == last for s in record.steps) == 1:
                return last  # click it back
        seen = _seen(record)
        return next((k for k in range(self.shape.cells) if k not in seen), None)


class Sequential(Base):
    """Every cell once in reading order (the documented z3 method)."""

    name = "sequential"

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        seen = _seen(record)
        return next((k for k in range(self.shape.cells) if k not in seen), None)


class Fixed(Base):
    """A fixed routine of clicks that determines every board (countlo.play.routine), in its order."""

    name = "fixed"

    def __init__(self, shape: Shape):
        super().__init__(shape)
        from countlo.play.routine import routine

        self.routine = routine(shape)

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        seen = _seen(record)
        return next((k for k in self.routine.cells if k not in seen), None)


class Greedy(Base):
    """Maximise P(press needed) + weight * entropy of the next count (docs/MATH.md §15 baseline).

    Clicks likely to be part of the final press set cost nothing extra, and a count with high
    entropy halves the possible boards fastest.
    """

    name = "greedy"
    weight = 0.5

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        return best_informative(knowledge, self.weight)


class Manual(Base):
    """The player picks every probe: None means "ask"; finishing is still planned for them."""

    name = "manual"
    asks = True

    def choose(self, record: Record, knowledge: Knowledge) -> int | None:
        return None


def best_informative(knowledge: Knowledge, weight: float = 0.5) -> int | None:
    """The click maximising P(press needed) + weight * entropy; None if no click tells anything."""
    ent = knowledge.entropies
    if max(ent, default=0.0) <= 1e-12:
        return None
    press = knowledge.press_probabilities
    scores = [(press[k] + weight * ent[k], -k) for k in range(len(ent)) if ent[k] > 1e-12]
    return -max(scores)[1]


@dataclass(frozen=True)
class Entry:
    name: str
    factory: Callable[[Shape], Strategy]
    help: str


_REGISTRY: dict[str, Entry] = {}
_plugins_loaded = False


def register(name: str, factory: Callable[[Shape], Strategy], help: str = "") -> None:
    """Make `factory(shape)` available as strategy `name` (a later registration replaces it)."""
    _REGISTRY[name] = Entry(name, factory, help)


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for module in PLUGINS:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


def strategy_names() -> list[str]:
    """Registered strategy names, `adaptive` first."""
    _load_plugins()
    return sorted(_REGISTRY, key=lambda n: (n != "adaptive", n))


def strategy_help(name: str) -> str:
    """One line describing a registered strategy."""
    _load_plugins()
    return _REGISTRY[name].help


def make_strategy(name: str, shape: Shape) -> Strategy:
    """A fresh strategy `name` for boards of `shape`; UnknownStrategyError names the choices."""
    _load_plugins()
    entry = _REGISTRY.get(str(getattr(name, "value", name)).strip().lower())
    if entry is None:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}: choose one of {', '.join(strategy_names())}"
        )
    return entry.factory(shape)


register("restore", Restore, "click, read, click back: 2 probes per cell in reading order")
register("sequential", Sequential, "click every cell once in reading order")
register("fixed", Fixed, "a fixed routine that determines every board (24 clicks on 6x6)")
register("greedy", Greedy, "max P(press needed) + 0.5 * entropy of the next count")
register("adaptive", Greedy, "the most informative click under the exact posterior")
register("manual", Manual, "the player picks every probe")
