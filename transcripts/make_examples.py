"""Write the example transcripts in this folder by playing seeded random boards with countlo.

Nothing here is typed by hand: each hidden board comes from random.Random(seed), each count from
clicking it (observe.record_of), each file from countlo's own writers. The typo examples take a
real game and change one count, as a person noting counts might. Run from the repository root:

    python transcripts/make_examples.py [OUTDIR]

tests/test_replay.py runs this again and checks the files in transcripts/ are exactly its output.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.formats.hand import dumps_restore, dumps_rows
from countlo.formats.transcript import Header, Writer
from countlo.hidden.record import Record, Step, possible_after, record_of

DATE = "2026-11-21T12:00:00Z"
SIX, FIVE = Shape(6, 6), Shape(5, 5)


def hidden(shape: Shape, seed: int) -> int:
    """The seeded random hidden start: every light on or off with probability 1/2."""
    return random.Random(seed).getrandbits(shape.cells)


def reading_order(shape: Shape) -> list[int]:
    return list(range(shape.cells))


def click_back(shape: Shape) -> list[int]:
    return [k for k in range(shape.cells) for _ in (0, 1)]


def _countlo(header: Header, record: Record, note: str, extra=None) -> str:
    """The transcript the writer produces for `record`; `extra(writer, i)` may add lines after step i."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.txt"
        with Writer.create(str(path), header) as w:
            w.note(note)
            w.start(record.start)
            for i, s in enumerate(record.steps, 1):
                w.step(s.cell, s.count)
                if extra:
                    extra(w, i)
        return path.read_text(encoding="utf-8")


def _with_typo(record: Record, step: int) -> Record:
    """`record` with step `step`'s count replaced by the nearest other count that is still
    possible after the count before it (so only the whole record can show the mistake)."""
    s = record.steps[step - 1]
    before = record.counts[step - 1]
    options = [c for c in possible_after(record.shape, s.cell, before) if c != s.count]
    after = record.steps[step].count if step < len(record.steps) else None
    for c in sorted(options, key=lambda c: (abs(c - s.count), c)):
        steps = list(record.steps)
        steps[step - 1] = Step(s.cell, c)
        nxt = record.steps[step] if step < len(record.steps) else None
        if nxt is None or after in possible_after(record.shape, nxt.cell, c):
            return Record(record.shape, record.start, tuple(steps))
    raise ValueError("no locally possible typo at this step")


def _unclearable_seed(shape: Shape, clicks: list[int], first: int) -> int:
    """The first seed from `first` whose lights, after the clicks, no press set clears."""
    from countlo.visible.engines.polynomial_chase import solve

    seed = first
    while True:
        rec = record_of(shape, hidden(shape, seed), clicks)
        if not solve(shape, rec.lights(hidden(shape, seed))).solvable:
            return seed
        seed += 1


def examples() -> dict[str, str]:
    """File name -> text of every example."""
    out = {}
    rec = record_of(SIX, hidden(SIX, 1), reading_order(SIX))
    out["rows-6x6.txt"] = ("# 'rows' format: the starting count, then the count after clicking\n"
                           "# each cell once in reading order (hidden board: seed 1)\n"
                           + dumps_rows(rec))
    rec = record_of(SIX, hidden(SIX, 2), click_back(SIX))
    out["restore-6x6.txt"] = ("# 'restore' format: the starting count, then for each cell the\n"
                              "# count after clicking it and after clicking it back (seed 2)\n"
                              + dumps_restore(rec))
    rec = record_of(SIX, hidden(SIX, 3), reading_order(SIX))
    out["sequential-6x6.txt"] = _countlo(
        Header(SIX, date=DATE, strategy="sequential", seed=3), rec,
        "every cell clicked once in reading order")
    rec = record_of(SIX, hidden(SIX, 4), click_back(SIX))
    out["click-back-6x6.txt"] = _countlo(
        Header(SIX, date=DATE, strategy="restore", seed=4), rec,
        "each cell clicked, then clicked back")
    rec = record_of(SIX, hidden(SIX, 5), reading_order(SIX))
    out["typo-6x6.txt"] = _countlo(
        Header(SIX, date=DATE, strategy="sequential", seed=5), _with_typo(rec, 12),
        "the count of step 12 was noted wrong: replay finds it")
    rec = record_of(SIX, hidden(SIX, 6), reading_order(SIX))
    out["typo-impossible-6x6.txt"] = _impossible(
        Header(SIX, date=DATE, strategy="sequential", seed=6), rec, 20)
    rec = record_of(SIX, hidden(SIX, 7), reading_order(SIX)[:12])
    out["ambiguous-6x6.txt"] = _countlo(
        Header(SIX, date=DATE, strategy="sequential", seed=7), rec,
        "stopped after 12 clicks: not enough to know the board")
    out["corrected-6x6.txt"] = _corrected(8)
    seed = _unclearable_seed(FIVE, click_back(FIVE), 9)
    rec = record_of(FIVE, hidden(FIVE, seed), click_back(FIVE))
    out["unclearable-5x5.txt"] = _countlo(
        Header(FIVE, date=DATE, strategy="restore", seed=seed), rec,
        "5x5 has quiet patterns: this board cannot be cleared")
    return out


def _impossible(header: Header, record: Record, step: int) -> str:
    """The transcript text of `record` with step `step`'s count one too many, written line by
    line as the writer would (the writer itself refuses an impossible count)."""
    text = _countlo(header, record, f"the count of step {step} was noted one too many")
    lines = text.split("\n")
    first = lines.index(f"start {record.start}")
    s = record.steps[step - 1]
    lines[first + step] = f"{record.shape.name(s.cell)} {s.count + 1}"
    return "\n".join(lines)


def _corrected(seed: int) -> str:
    """A game with two slips made and corrected during play: a count mistyped and undone at
    once, and a later count mistyped and put right with 'fix' five clicks on."""
    rec = record_of(SIX, hidden(SIX, seed), reading_order(SIX))
    typo = _with_typo(rec, 25)
    oops = random.Random(seed).randrange(2, 10)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.txt"
        with Writer.create(str(path), Header(SIX, date=DATE, strategy="sequential",
                                             seed=seed)) as w:
            w.note("a mistyped count undone at once, and another fixed later")
            w.start(rec.start)
            for i, s in enumerate(rec.steps, 1):
                if i == oops:
                    w.step(s.cell, _with_typo(rec, i).steps[i - 1].count)
                    w.undo()
                    w.step(s.cell, s.count, comment="retyped")
                else:
                    w.step(s.cell, typo.steps[i - 1].count)
                if i == 30:
                    w.fix(25, rec.steps[24].count)
        return path.read_text(encoding="utf-8")


def main(outdir: str | None = None) -> None:
    where = Path(outdir) if outdir else Path(__file__).resolve().parent
    for name, text in examples().items():
        (where / name).write_text(text, encoding="utf-8")
        print(f"wrote {where / name}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
