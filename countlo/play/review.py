"""What `countlo replay` finds in a record: the hidden start and when it became known, the
finishing plan with the count each click should show, what each count implied, and which typo
most likely broke a contradictory record. Plus the board pictures it prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from countlo.board import Shape
from countlo.countboard import CountBoard
from countlo.hidden.diagnose import diagnose, searchable
from countlo.hidden.posterior.choice import Posterior, posterior_of
from countlo.hidden.posterior.frontier import check_supported
from countlo.hidden.rebuild import determined_after, reconstruct
from countlo.hidden.record import Record, Step, first_prefix, possible_after
from countlo.hidden.result import Status
from countlo.play.finish import Plan, finish_plan
from countlo.play.guide import WITNESS_LIMIT, none_clearable
from countlo.visible.bitsets import fewest_presses, solve

EXACT_SIDE = 8  # the exact engine answers in well under a second up to this width
EXACT_CELLS = 480  # ... and this many cells (8x60: seconds; 8x125 runs for minutes)


def choose_engine(shape: CountBoard, engine: str = "auto") -> str:
    """`engine`, or for "auto" the exact engine on boards up to 8 wide and the linear one beyond
    (the exact count's row states grow with the width; the linear engine stays fast)."""
    if engine != "auto":
        return engine
    if not isinstance(shape, Shape):  # a press board: the split engine, or the window over its lights
        return "exact"
    small = min(shape.rows, shape.cols) <= EXACT_SIDE and shape.cells <= EXACT_CELLS
    return "exact" if small else "linear"


@dataclass(frozen=True)
class StepNote:
    """What one count said: lit cells of N(cell) before the click, and boards left after it."""

    step: int
    cell: int | None
    count: int
    change: int | None
    lit_before: int | None
    around: int | None
    possible: int
    possible_exact: bool = True
    known: int | None = None


def step_notes(record: Record, engine: str = "exact") -> list[StepNote]:
    """Per step: lit in N(k) before = (|N(k)| - change) / 2, the boards left after it (exactly
    with the exact engine; the others count up to their limit) and, with the exact engine, the
    cells whose start is known (lit in all boards left, or in none)."""
    shape = record.shape
    last: list[Posterior] = []  # the posterior of the prefix before: updated, not rebuilt (MATH §29)

    def left(n: int) -> tuple[int, bool, int | None]:
        if engine == "exact":
            p = posterior_of(record.prefix(n), last.pop() if last else None)
            last.append(p)
            known = sum(m in (0.0, 1.0) for m in p.start_marginals()) if p.count else None
            return p.count, getattr(p, "count_exact", True), known
        r = reconstruct(record.prefix(n), engine)
        return r.possible, r.possible_exact, None

    notes = [StepNote(0, None, record.start, None, None, None, *left(0))]
    before = record.start
    for i, s in enumerate(record.steps, 1):
        n = len(shape.neighbours(s.cell))
        change = s.count - before
        notes.append(StepNote(i, s.cell, s.count, change, (n - change) // 2, n, *left(i)))
        before = s.count
    return notes


def typo_likeness(written: int, suggested: int) -> tuple[int, int]:
    """Sort key of a suggested correction: one-keystroke slips first, then the smaller change
    (docs/MATH.md §13)."""
    a, b = str(written), str(suggested)
    one_key = (
        (len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1)
        or (len(a) == len(b) == 2 and a == b[::-1])
        or (abs(len(a) - len(b)) == 1 and (a in b or b in a))
    )
    return (0 if one_key else 1, abs(written - suggested))


@dataclass(frozen=True)
class Typo:
    """A single count change that makes the record consistent, at the line it was written."""

    line: int
    step: int
    written: int
    suggested: int


@dataclass
class Replay:
    """Everything replay reports about one record. `counts[0]` is the starting count;
    `count_lines[i]` is where count i was written. When some count is impossible (`impossible`),
    `record` holds only the steps before it (None if the starting count itself is impossible)."""

    shape: CountBoard
    cells: tuple[int, ...]
    counts: tuple[int, ...]
    count_lines: tuple[int, ...]
    record: Record | None
    status: str
    start: int | None = None
    determined_after: int | None = None
    possible: int = 0
    possible_exact: bool = True
    marginals: list[float] | None = None
    engine: str = "exact"
    lights: int | None = None
    finish: Plan = ()
    finish_exact: bool = True
    clearable: bool | None = None
    witness: int | None = None
    stops_at: int | None = None
    impossible: bool = False
    typos: list[Typo] = field(default_factory=list)
    corrected: Replay | None = None  # the replay with the most likely typo put right
    typos_searched: bool = True  # False for records too long for the single-typo search


def replay(record: Record, count_lines: tuple[int, ...], engine: str = "auto") -> Replay:
    """The reconstruction of `record`, when it became known, and the finishing plan."""
    engine = choose_engine(record.shape, engine)
    if engine == "exact":
        check_supported(record.shape)
    rec = reconstruct(record, engine)
    out = Replay(record.shape, tuple(s.cell for s in record.steps), tuple(record.counts),
                 tuple(count_lines), record, rec.status.value, engine=engine)
    if rec.status is Status.CONTRADICTORY:
        out.typos_searched = searchable(record)
        out.stops_at = first_contradiction(record, engine)
        out.typos = ranked([(f.step, f.written, f.suggested) for f in diagnose(record)],
                           out.count_lines, out.stops_at)
        out.corrected = _corrected(out)
    elif rec.status is Status.AMBIGUOUS:
        out.possible, out.possible_exact = rec.possible, rec.possible_exact
        if engine == "exact":
            p = posterior_of(record)
            out.possible, out.possible_exact = p.count, getattr(p, "count_exact", True)
            out.marginals = p.start_marginals()
            stuck = none_clearable(out.shape, lambda: p.boards(WITNESS_LIMIT))
            if stuck is not None:  # clicks keep each quiet-pattern parity: more clicks cannot help
                out.clearable, out.witness = False, stuck[0]
    elif rec.board is not None:
        out.start, out.possible = rec.board, 1
        out.determined_after = determined_after(record, engine)
        out.lights = record.lights(rec.board)
        _plan_finish(out, out.lights)
    return out


def replay_impossible(shape: CountBoard, cells: list[int], counts: list[int],
                      count_lines: tuple[int, ...]) -> Replay:
    """Counts where some click shows a count no board can: the first such step, and every single
    count change that makes all the counts fit one board (diagnose on the raw record)."""
    bad = first_impossible(shape, cells, counts)
    raw = (shape, counts[0], [(c, n) for c, n in zip(cells, counts[1:])])
    fixes = diagnose(raw)
    prefix = None
    if bad > 0:
        prefix = Record(shape, counts[0], tuple(Step(c, n) for c, n in zip(cells, counts[1:bad])))
    out = Replay(shape, tuple(cells), tuple(counts), tuple(count_lines), prefix, "contradictory",
                 stops_at=bad, impossible=True, engine=choose_engine(shape),
                 typos_searched=searchable(raw))
    out.typos = ranked([(f.step, f.written, f.suggested) for f in fixes], out.count_lines, bad)
    out.corrected = _corrected(out)
    return out


def _corrected(out: Replay) -> Replay | None:
    """The replay of the record with its most likely typo put right (None if there is none)."""
    if not out.typos:
        return None
    t = out.typos[0]
    counts = list(out.counts)
    counts[t.step] = t.suggested
    record = Record(out.shape, counts[0], tuple(Step(c, n) for c, n in zip(out.cells, counts[1:])))
    return replay(record, out.count_lines, out.engine)


def _plan_finish(out: Replay, lights: int) -> None:
    """The fewest presses taking the lights now to the goal (all dark, or all lit under a lit
    target), or the pattern proving none do."""
    found = fewest_presses(out.shape, lights, out.shape.goal)
    if found is None:
        out.clearable = False
        out.witness = solve(out.shape, lights, out.shape.goal).witness
    else:
        out.clearable = True
        out.finish = finish_plan(out.shape, lights, found[0])
        out.finish_exact = found[1]


def first_contradiction(record: Record, engine: str = "exact") -> int:
    """The fewest steps whose counts already contradict (binary search: contradiction persists)."""
    return first_prefix(len(record.steps), lambda n: reconstruct(
        record.prefix(n), engine).status is Status.CONTRADICTORY)


def first_impossible(shape: CountBoard, cells: list[int], counts: list[int]) -> int:
    """The first step whose count no click could show after the count before it (0: the start)."""
    if not 0 <= counts[0] <= shape.cells:
        return 0
    for i, cell in enumerate(cells, 1):
        if counts[i] not in possible_after(shape, cell, counts[i - 1]):
            return i
    return len(cells)


def ranked(fixes: list[tuple[int, int, int]], count_lines: tuple[int, ...],
           stops_at: int | None) -> list[Typo]:
    """Corrections (step, written, suggested), most likely first: one-keystroke slips, then small
    changes, then those nearest the step where the counts stopped fitting."""
    def key(f: tuple[int, int, int]) -> tuple[int, ...]:
        step, written, suggested = f
        return typo_likeness(written, suggested) + (abs((stops_at or 0) - step), step)

    return [Typo(count_lines[s] if s < len(count_lines) else 0, s, w, v)
            for s, w, v in sorted(fixes, key=key)]
