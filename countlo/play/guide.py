"""The companion's state machine: starting count, advice, observations, undo, the finishing plan.

Shared by `simulate`, `play` and the tests. While the hidden start is unknown the guide asks the
strategy for a probe; once exactly one start fits the record it plans the fewest presses that
clear the lights now (clicks commute over GF(2), and clicks already made are part of the state),
each with the count it should show, so every finishing click doubles as a check on earlier counts.
A count that contradicts the record is never corrected by itself: it waits aside as a `Doubt`
naming the single mistakes that explain it (a mistyped count, a click on a neighbouring cell, a
click that did not register; countlo.hidden.explain), likeliest first, until the player says
which one it was (`answer`) or takes it back (`undo`). So the record only ever holds what was
typed or what the player confirmed, and the guide never corrects twice in a row without asking.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from countlo.countboard import CountBoard
from countlo.errors import BadCountError, CountloError
from countlo.hidden.diagnose import Fix
from countlo.hidden.explain import Missed, Mistake, OtherCell, StartAside, Suspect, corrected, explain, raw_of
from countlo.hidden.posterior.choice import Posterior, check_rules, posterior_of
from countlo.hidden.record import Record, Step, check_start, check_step, first_prefix
from countlo.hidden.result import engine_of
from countlo.i18n import _
from countlo.lru import LRU
from countlo.play.advice import (
    Advice,
    AwaitStart,
    Contradiction,
    Done,
    Doubt,
    Finish,
    GaveUp,
    Learned,
    Phase,
    Probe,
    Stuck,
    Tally,
    Unclearable,
)
from countlo.play.finish import Plan, finish_plan
from countlo.play.knowledge import Knowledge, press_set
from countlo.play.outlook import Outlook, outlook
from countlo.play.sift import tell_apart
from countlo.play.strategies.base import best_informative
from countlo.play.strategies.registry import make_strategy
from countlo.visible.bitsets import invariants, solve

SUSPECTS = 8  # mistakes kept in a Doubt, likeliest first (the screen shows fewer)
SHOWN = 3  # mistakes a screen lists
SURE = 0.9  # a suspect this likely is taken after a telling click, and is Enter's answer before one
CACHE = 96  # posteriors and knowledge kept, one per record seen (undo and re-plans hit them)
POSTERIOR_BYTES = 192 << 20  # at most this much of cached posterior tables (see _posterior)


def _table_bytes(post: Posterior) -> int:
    return post.nbytes


def _weakly(method: Callable[[Record], Posterior]) -> Callable[[Record], Posterior]:
    """The guide's posterior cache for its Knowledge objects, without keeping the guide alive.

    The guide caches each Knowledge, so a Knowledge holding the guide's bound method made a cycle
    that only Python's cyclic collector frees, and it runs by object counts, blind to numpy's
    memory: a `simulate` run kept the tables of several finished games at once (6x6: 359 MB after
    20 games against 84 MB for one). A Knowledge that outlives its guide builds its own posterior.
    """
    ref = weakref.WeakMethod(method)

    def cached(record: Record) -> Posterior:
        bound = ref()
        return posterior_of(record) if bound is None else bound(record)

    return cached


WITNESS_LIMIT = 256  # list the possible starts to look for a common unclearability proof


class GuideError(CountloError):
    """The guide was asked something its state cannot answer (e.g. a count before the start)."""


@dataclass(frozen=True)
class Progress:
    """Clicks and probes so far, boards still possible, bits known, the strategy and the phase."""

    clicks: int
    probes: int
    possible: int
    bits_known: float
    strategy: str
    phase: Phase
    tally: Tally = Tally.EXACT  # how well `possible` is known


@dataclass(frozen=True)
class _State:
    record: Record | None
    probes: int
    stuck: Stuck | None
    corrections: tuple[Mistake, ...]


class Guide:
    """The companion for one game on `shape` (see module docstring)."""

    def __init__(self, shape: CountBoard, strategy: str = "adaptive", engine: str = "exact", seed: int = 0,
                 max_clicks: int | None = None, counts: bool = True):
        """`counts=False` leaves Advice.possible empty while probing (simulations need no prompt)."""
        engine = engine_of(engine).value
        check_rules(shape)  # other rules: refuse up front what the posterior cannot follow
        self.shape = shape
        self.strategy = str(getattr(strategy, "value", strategy)).strip().lower()
        self._strategy = make_strategy(self.strategy, shape)
        self.engine = engine
        self.seed = seed
        self.max_clicks = max_clicks if max_clicks is not None else 10 * shape.cells + 20
        self.counts = counts
        self.record: Record | None = None
        self.probes = 0
        self.corrections: tuple[Mistake, ...] = ()  # applied so far
        self._stuck: Stuck | None = None
        self._missed: tuple[Record, int] | None = None  # the record and cell of a click said not to register
        self._history: list[_State] = []
        self._posteriors: LRU[Record, Posterior] = LRU(CACHE)
        self._knowledge: LRU[Record, Knowledge] = LRU(CACHE)
        self._advice: tuple[tuple[Record | None, Stuck | None], Advice] | None = None
        self._advised: LRU[Record, Advice] = LRU(CACHE)  # the advice given for each record seen
        self._posterior_of = _weakly(self._posterior)

    # --- caches -----------------------------------------------------------------------------
    def _posterior(self, record: Record) -> Posterior:
        found = self._posteriors.get(record)
        if found is not None:
            return found
        parent = self._posteriors.get(record.undo()) if record.steps else None  # updated, not rebuilt
        post = self._posteriors.put(record, posterior_of(record, parent))
        # big boards' tables run to tens of MB each: bound their total, and let the knowledge
        # of an evicted record rebuild its posterior when asked again
        for gone in self._posteriors.trim(_table_bytes, POSTERIOR_BYTES):
            for k in self._knowledge.values():
                if k.__dict__.get("posterior") is gone:
                    del k.__dict__["posterior"]
        return post

    def knowledge(self, record: Record | None = None) -> Knowledge:
        """What `record` (the current one by default) tells, cached per record."""
        record = record or self._require()
        k = self._knowledge.get(record)
        if k is None:
            parent = self._knowledge.get(record.undo()) if record.steps else None
            prior = parent.__dict__.get("counted") if parent is not None else None
            k = self._knowledge.put(record, Knowledge(
                record, self.engine, self.seed, posterior_of=self._posterior_of, prior=prior))
        return k

    def _require(self) -> Record:
        if self.record is None:
            raise GuideError(_("no starting count yet: type the count the game shows before any "
                               "click"))
        return self.record

    def _save(self) -> None:
        self._history.append(_State(self.record, self.probes, self._stuck, self.corrections))
        self._advice = None

    # --- the game ---------------------------------------------------------------------------
    def start(self, count: int) -> None:
        """Begin with the starting count; BadCountError if no board shows it."""
        check_start(self.shape, count)
        self._save()
        self.record, self.probes, self.corrections = Record(self.shape, count), 0, ()

    @property
    def done(self) -> bool:
        """True when the lights are all out (all on under a lit target): the record's last count,
        typed or confirmed by the player, is the goal's (never one the guide chose)."""
        return self.record is not None and self._stuck is None and self.record.count == self.shape.goal_count

    def known(self) -> int | None:
        """The hidden start, when the record determines it."""
        if self.record is None:
            return None
        return self.knowledge().board

    def possible_counts(self, cell: int) -> tuple[int, ...]:
        """Counts a click on `cell` now would show on some still-consistent board."""
        self.shape.name(cell)  # BadCellError when there is no such cell
        dist = self.knowledge().distribution(cell)
        return tuple(sorted(c for c, w in dist.items() if w))

    def marginals(self) -> list[float]:
        """P(cell lit now) for every cell: 0 or 1 once the board is known."""
        k = self.knowledge()
        board = k.board
        if board is not None:
            lights = board ^ k.record.flips()
            return [float(lights >> j & 1) for j in range(self.shape.cells)]
        return list(k.posterior.light_marginals())

    def outlook(self) -> Outlook | None:
        """Clicks still to come (estimated) and the cells settled in or out of the press set;
        None before the starting count or when no board fits the counts."""
        if self.record is None or self.knowledge().possible == 0:
            return None
        return outlook(self.knowledge())

    def plan(self) -> list[tuple[int, int]]:
        """The finishing clicks with the count each should show, when the board is known."""
        adv = self.advice()
        return list(adv.plan) if isinstance(adv, Finish) else []

    def finish_plan(self, start: int, record: Record) -> Plan | None:
        """Fewest presses clearing the lights of `start` after `record`, in reading order, with
        counts (docs/MATH.md §14)."""
        lights = start ^ record.flips()
        presses = press_set(self.shape, lights)
        return None if presses is None else finish_plan(self.shape, lights, presses)

    def advice(self) -> Advice:
        """What to do next (cached until the record changes)."""
        key = (self.record, self._stuck)
        if self._advice is None or self._advice[0] != key:
            # the same record gets the same advice (the strategy draws samples from a generator
            # it advances), so a click taken back, or said not to have registered, is advised again
            kept = self._advised.get(self.record) if self.record is not None and self._stuck is None else None
            advice = kept if kept is not None else self._advise()
            if self.record is not None and self._stuck is None and kept is None:
                self._advised.put(self.record, advice)
            self._advice = (key, advice)
        return self._advice[1]

    def _advise(self) -> Advice:
        if self.record is None:
            return AwaitStart(self.shape.cells)
        record = self.record
        if self._stuck:
            return self._stuck
        if record.count == self.shape.goal_count:
            return Done(len(record.steps))
        if len(record.steps) >= self.max_clicks:
            return GaveUp(len(record.steps))
        k = self.knowledge()
        if k.possible == 0:
            return Contradiction()
        if k.board is not None:
            return self._finish(k.board, record)
        stop = self._all_unclearable(k)
        if stop is not None:
            return stop
        cell = self._strategy.next_click(record, k)
        exhausted = False
        if cell is None and getattr(self._strategy, "asks", False):
            return Probe(None, (), k.possible, tally=k.tally)
        if cell is None:
            cell, exhausted = best_informative(k), True
        if cell is None:
            start = k.posterior.sample(1, k.rng)[0]
            return self._finish(start, record, guessed=k.possible)
        possible = self.possible_counts(cell) if self.counts else ()
        return Probe(cell, possible, k.possible, exhausted, k.tally)

    def _all_unclearable(self, k: Knowledge) -> Unclearable | None:
        """STUCK advice if no start still possible can be cleared (checked when few enough to list).

        Clicks never change whether the lights can be cleared (see common_witness), so probing
        further cannot help; a quiet pattern common to all of them is shown when one exists.
        """
        if k.possible > WITNESS_LIMIT:
            return None
        got = none_clearable(self.shape, lambda: k.posterior.boards(WITNESS_LIMIT))
        return None if got is None else Unclearable(k.possible, got[0], got[1], listed=True)

    def _finish(self, start: int, record: Record, guessed: int = 0) -> Finish | Unclearable:
        plan = self.finish_plan(start, record)
        if plan is None:
            witness = solve(self.shape, start ^ record.flips(), self.shape.goal).witness
            return Unclearable(max(guessed, 1), witness, guessed=guessed > 1)
        return Finish(plan, guessed)

    def observe(self, cell: int, count: int, force: bool = False) -> Learned:
        """Add one click and the count it showed.

        A count that fits the record is added. One that does not is held aside as a `Doubt`
        (see module docstring), except that while probing a count no consistent board would
        show, or one no click on `cell` can show, raises BadCountError (the player looks again):
        unless `force` (the player insists, so the count is not a suspect) or the count is the
        count before the click (the click may not have registered: that is asked about).
        """
        record = self._require()
        self.shape.name(cell)  # BadCellError when there is no such cell
        if isinstance(self._stuck, Doubt):
            raise GuideError(_("the count {count} after {cell} does not fit yet: say which mistake it "
                               "was, or undo").format(count=self._stuck.count,
                                                      cell=self.shape.name(self._stuck.clicked)))
        adv = self.advice()
        repeated = count == record.count
        try:
            new: Record | None = record.then(cell, count)
        except BadCountError:
            if not (force or repeated):
                raise
            new = None  # no click on `cell` shows it: held aside, asked about
        before, tally_before = self.knowledge().possible, self.knowledge().tally
        if new is not None and isinstance(adv, Probe) and not (force or repeated) \
                and self.knowledge(new).possible == 0:
            ok = self.possible_counts(cell)
            if count not in ok:
                listed = ", ".join(map(str, ok))
                many = f"{before:,}"
                if tally_before is Tally.ABOUT:
                    many = _("about {n}").format(n=many)
                elif tally_before is Tally.AT_LEAST:
                    many = _("at least {n}").format(n=many)
                raise BadCountError(
                    _("count {count} after clicking {cell} fits none of the {n} boards still "
                      "possible (they show {listed})").format(
                        count=count, cell=self.shape.name(cell), n=many, listed=listed),
                    ok)
        self._save()
        step = len(record.steps) + 1
        if new is not None and self.knowledge(new).possible != 0:
            self._accept(new)
            after = self.knowledge()
            return Learned(step, cell, count, before, after.possible, (), None, tally_before, after.tally)
        doubt = self.doubt_about(cell, count, force)
        self._stuck = doubt
        return Learned(step, cell, count, before, 0, (), doubt, tally_before, tally_before)

    def doubt_about(self, cell: int, count: int, force: bool = False, held: tuple[Step, ...] = ()) -> Doubt:
        """The Doubt a count after a click on `cell` raises against the record (after the steps
        `held` aside before it): the suspects that explain it, likeliest first, and the click
        that tells them apart (computed, not applied)."""
        record = self._require()
        held = held + (Step(cell, count),)
        raw = raw_of(record, held)
        suspects = explain(raw, self._boards, trust_last=force, most=SUSPECTS + 1,
                           corrected_steps=frozenset(m.step for m in self.corrections))
        if self._missed == (record, cell):  # "did not register" was said just now: not again
            suspects = [s for s in suspects if not (isinstance(s.mistake, Missed) and s.mistake.step == len(raw[2]))]
        suspects = _rescaled(suspects[:SUSPECTS])
        telling = None
        if len(suspects) > 1 and suspects[0].chance < SURE:
            # told apart among every suspect kept, not only those a screen lists: a click chosen
            # for the first three alone can make a wrong one sure while the true one, fourth,
            # is never tested (issue 26, item 4; docs/MATH.md §26)
            records = [corrected(raw, s.mistake) for s in suspects]
            telling = tell_apart(suspects, records, self._laws, self.shape.cells)
            if telling is None:  # no count will tell them apart: the likeliest story first
                suspects = by_story(suspects)
        return Doubt(len(raw[2]), cell, count, tuple(suspects), force, held, telling)

    def sift(self, cell: int, count: int) -> Learned:
        """A click made while a Doubt is pending, to tell its suspects apart (e.g. its `telling`
        click): held aside with it, and the doubt asked again over every step held; when one
        suspect is then sure, it is applied (the player asked the game, not countlo, to decide)."""
        doubt = self.doubt
        if doubt is None:
            raise GuideError(_("no question is pending"))
        record = self._require()
        check_step(self.shape, cell, doubt.count, count)  # BadCountError: no click shows it
        before = self.knowledge().possible
        new = self.doubt_about(cell, count, force=True, held=doubt.held)
        self._save()
        step = new.step
        if new.suspects and (len(new.suspects) == 1 or new.suspects[0].chance >= SURE):
            mistake = new.suspects[0].mistake
            self._accept(corrected(raw_of(record, new.held), mistake))
            self.corrections = self.corrections + (mistake,)
            after = self.knowledge()
            return Learned(step, cell, count, before, after.possible, (), None)
        self._stuck = new
        return Learned(step, cell, count, before, 0, (), new)

    def _laws(self, record: Record) -> list[dict[int, int]]:
        """Per cell, the law of the next count after a trial record (a fresh Knowledge: the
        cached one of a record the game may return to is left as the strategy would find it)."""
        return Knowledge(record, self.engine, self.seed).count_distributions

    def _boards(self, record: Record) -> int:
        """Starts a trial record leaves (uncached: a diagnosis tries hundreds of records)."""
        if self.engine == "exact" and record.shape.cells <= 64:
            return posterior_of(record).count
        return Knowledge(record, self.engine, self.seed).possible

    def _accept(self, new: Record) -> None:
        """Make `new` (one step longer, or a corrected record) the record: a step added while the
        board is unknown is a probe."""
        if len(new.steps) > len(self._require().steps) and self.knowledge().board is None:
            self.probes += 1
        self.record = new
        self._stuck = None

    @property
    def restarted(self) -> bool:
        """True between a restart and the next starting count (undo takes the restart back)."""
        return self.record is None and len(self._history) > 1

    @property
    def doubt(self) -> Doubt | None:
        """The question pending about the last count typed, if any."""
        return self._stuck if isinstance(self._stuck, Doubt) else None

    def answer(self, mistake: Mistake) -> Record:
        """Settle the pending Doubt: `mistake` is what went wrong (one of its suspects, or any
        single mistake the player names that makes the counts fit); the record it leaves.

        A `Missed` newest click leaves the record as it was: click again.
        """
        doubt = self.doubt
        if doubt is None:
            raise GuideError(_("no question is pending"))
        record = self._require()
        new = corrected(raw_of(record, doubt.held), mistake)
        if self.knowledge(new).possible == 0:
            raise GuideError(_("that does not make the counts fit"))
        self._save()
        self._missed = (record, doubt.clicked) if isinstance(mistake, Missed) and mistake.step == doubt.step \
            and len(doubt.held) == 1 else None
        self._accept(new)
        self.corrections = self.corrections + (mistake,)
        return new

    def restart(self) -> None:
        """Begin again from the count the game shows now: the clicks so far are set aside and
        the lights now are a new hidden board (clicks commute, so nothing made is lost but
        knowledge). The way out when no single mistake explains the counts; undo takes it back."""
        self._require()
        self._save()
        self.record, self._stuck, self._missed = None, None, None

    def fits(self, mistake: Mistake) -> bool:
        """Whether saying the pending Doubt was `mistake` makes the counts fit."""
        doubt, record = self.doubt, self._require()
        if doubt is None:
            return False
        try:
            new = corrected(raw_of(record, doubt.held), mistake)
        except (BadCountError, IndexError):
            return False
        return self.knowledge(new).possible > 0

    def default_answer(self) -> Mistake | None:
        """The answer Enter gives to the pending Doubt: the likeliest suspect, but never a count
        of the goal's for the click just made (only a count the player types ends a game)."""
        doubt = self.doubt
        if doubt is None:
            return None
        for s in doubt.suspects:
            m = s.mistake
            if not (isinstance(m, Fix) and m.step == doubt.step and m.suggested == self.shape.goal_count):
                return m
        return None

    def amend(self, mistake: OtherCell | Missed) -> None:
        """Correct an earlier click: step `mistake.step` was on another cell, or did not register."""
        record = self._require()
        if not 1 <= mistake.step <= len(record.steps):
            raise GuideError(_("no step {step}: the record has steps 1-{last}").format(
                step=mistake.step, last=len(record.steps)))
        new = corrected(raw_of(record), mistake)  # BadCountError if it breaks a count
        self._save()
        self.record = new
        self.corrections = self.corrections + (mistake,)
        self._settle(trust_last=False, auto=False)

    def _settle(self, trust_last: bool, auto: bool = False) -> tuple[Fix, ...]:
        """If the record is contradictory, diagnose it and go STUCK listing the typo fixes that
        explain it, likeliest first. `trust_last`: the player insisted on the last
        count, so only earlier ones are suspects. `auto` is kept for callers that asked for the
        old behaviour (apply a single fix): it is no longer honoured, a fix is always asked for."""
        self._stuck = None
        if self.knowledge().possible != 0:
            return ()
        record = self._require()
        # the typo fixes, likeliest first (docs/MATH.md §26), at most a few: a player cannot
        # check a long unranked list against a game that shows no history
        fixes: list[Fix] = []
        for s in explain(raw_of(record), self._boards, trust_last=trust_last,
                         corrected_steps=frozenset(m.step for m in self.corrections)):
            m = s.mistake
            if isinstance(m, StartAside):
                m = Fix(0, m.written, m.likeliest)
            if isinstance(m, Fix):
                fixes.append(m)
        self._stuck = Contradiction(tuple(fixes[:SHOWN]))
        return tuple(fixes[:SHOWN])

    @property
    def fixes(self) -> tuple[Fix, ...]:
        """The candidate typo fixes while STUCK on a contradiction."""
        return self._stuck.fixes if isinstance(self._stuck, Contradiction) else ()

    def correct(self, step: int, count: int) -> None:
        """Replace the count of `step` (0 = the starting count), e.g. to apply a diagnose.Fix."""
        record = self._require()
        if not 0 <= step <= len(record.steps):
            raise GuideError(_("no step {step}: the record has steps 0-{last}").format(
                step=step, last=len(record.steps)))
        new = _replace(record, step, count)  # BadCountError if it breaks a neighbouring step
        self._save()
        self.record = new
        self.corrections = self.corrections + (Fix(step, record.counts[step], count),)
        self._settle(trust_last=False, auto=False)

    def undo(self) -> Step | None:
        """Take back the last observation (a count held aside in a Doubt first), correction or
        answer; the step taken back.

        None if there is nothing to undo (or the undone change was a starting-count correction).
        """
        if len(self._history) <= 1:
            return None
        if self.record is None:  # a restart taken back
            s0 = self._history.pop()
            self.record, self.probes, self._stuck, self.corrections = s0.record, s0.probes, s0.stuck, s0.corrections
            self._advice = None
            return None
        current, doubt = self.record, self.doubt
        s = self._history.pop()
        self.record, self.probes, self._stuck = s.record, s.probes, s.stuck
        self.corrections = s.corrections
        self._advice = None
        if doubt is not None:
            return Step(doubt.clicked, doubt.count)
        before = s.record.steps if s.record is not None else ()
        if len(current.steps) > len(before):
            return current.steps[-1]
        changed = [i for i, (a, b) in enumerate(zip(current.steps, before)) if a != b]
        return current.steps[changed[0]] if changed else None

    def progress(self) -> Progress:
        """Clicks, probes, boards still possible and bits known so far."""
        phase = self.advice().phase
        if self.record is None:
            return Progress(0, 0, 1 << self.shape.cells, 0.0, self.strategy, phase)
        k = self.knowledge()
        possible = k.possible
        bits = self.shape.cells - math.log2(possible) if possible > 0 else float(self.shape.cells)
        return Progress(len(self.record.steps), self.probes, possible, bits, self.strategy, phase, k.tally)

    @classmethod
    def from_record(cls, record: Record, strategy: str = "adaptive", engine: str = "exact",
                    seed: int = 0) -> Guide:
        """A guide resumed from a saved record; probes = steps before the start became known.

        Every step is in the history as if it had been typed, so undo takes them back one by one.
        """
        g = cls(record.shape, strategy, engine, seed)
        g.start(record.start)
        g.record = record
        g._settle(trust_last=False)
        if g._stuck or not g.knowledge().known:
            known_at = len(record.steps)
        else:
            # knowing is monotone in the prefix length
            known_at = first_prefix(len(record.steps), lambda n: g.knowledge(record.prefix(n)).known)
        stuck = g._stuck
        steps = record.steps
        if stuck is not None and steps and g.knowledge(record.undo()).possible:
            # the session was left while asking about its last count: ask again
            g.record, g._stuck = record.undo(), None
            stuck = g.doubt_about(steps[-1].cell, steps[-1].count)
            record, known_at = record.undo(), min(known_at, len(steps) - 1)
        g.record, g._stuck = record.prefix(0), None
        for n in range(1, len(record.steps) + 1):
            g._save()
            g.record, g.probes = record.prefix(n), min(n, known_at)
        g._stuck = stuck
        g._advice = None
        return g


def none_clearable(shape: CountBoard, boards: Callable[[], list[int] | None]) -> tuple[int | None, int] | None:
    """When none of the boards (listed only if the board has quiet patterns at all) can be cleared:
    a quiet pattern proving it for all of them (None when no one pattern does, see common_witness)
    and the number of quiet patterns; None when some board can be cleared or none is listed."""
    quiet = invariants(shape)
    if not quiet:
        return None
    starts = [b ^ shape.goal for b in boards() or []]  # parities are compared with the goal's
    if not starts or any(all((q & b).bit_count() % 2 == 0 for q in quiet) for b in starts):
        return None
    return common_witness(quiet, starts), len(quiet)


def common_witness(quiet: tuple[int, ...] | list[int], starts: list[int]) -> int | None:
    """A combination q of the quiet basis with |q & b| odd for every start b, or None.

    Clicks are orthogonal to these patterns over GF(2) (w A = 0; for the classic, symmetric A
    they are the quiet patterns), so |q & lights| has the parity of |q & start| whatever was
    clicked: such a q proves no start can be cleared (docs/MATH.md §5, §18).
    Finding it is a linear system over GF(2) in the d coefficients, one equation per start.
    """
    if not starts:
        return None
    d = len(quiet)
    rows = {sum(((q & b).bit_count() & 1) << i for i, q in enumerate(quiet)) | (1 << d) for b in starts}
    pivots: dict[int, int] = {}  # pivot bit -> row, rows reduced by the earlier pivots
    for r in rows:
        for bit, p in pivots.items():
            if r >> bit & 1:
                r ^= p
        low = r & ((1 << d) - 1)
        if not low:
            if r:  # 0 = 1: no combination works
                return None
            continue
        bit = low.bit_length() - 1
        for b2 in list(pivots):
            if pivots[b2] >> bit & 1:
                pivots[b2] ^= r
        pivots[bit] = r
    coeffs = sum(1 << bit for bit, r in pivots.items() if r >> d & 1)
    q = 0
    for i in range(d):
        if coeffs >> i & 1:
            q ^= quiet[i]
    return q


def by_story(suspects: list[Suspect]) -> list[Suspect]:
    """The suspects grouped by what went wrong where (step 2's count, step 2's click on another
    cell, a click that did not register, the start), the likeliest group first, each group in
    its own order. When no click can tell suspects apart (they leave the same lights, so the
    game goes on the same whichever is answered), the question that matters is which step
    and kind of slip it was: five equally likely neighbours of one click together outweigh a
    single likelier typo (issue 26, item 4; docs/MATH.md §26)."""
    groups: dict[tuple[str, int], list[Suspect]] = {}
    for s in suspects:
        groups.setdefault((type(s.mistake).__name__, s.mistake.step), []).append(s)
    ranked = sorted(groups.values(), key=lambda g: -sum(s.chance for s in g))  # stable: ties keep their order
    return [s for g in ranked for s in g]


def _rescaled(suspects: list[Suspect]) -> list[Suspect]:
    """The suspects with their chances summing to one among themselves."""
    total = sum(s.chance for s in suspects) or 1.0
    return [Suspect(s.mistake, s.chance / total, s.boards) for s in suspects]


def _replace(record: Record, step: int, count: int) -> Record:
    if step == 0:
        return Record(record.shape, count, record.steps)
    steps = list(record.steps)
    steps[step - 1] = Step(steps[step - 1].cell, count)
    return Record(record.shape, record.start, tuple(steps))
