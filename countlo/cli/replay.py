"""`countlo replay FILE`: rebuild the hidden start from a transcript and give the finishing plan.

Exit codes: 0 when the counts fit some board (determined, or ambiguous with the number of boards
left), 1 when they are contradictory (with the line to look at and the likely typo), 2 when the
file is malformed (every problem with its line).
"""

from __future__ import annotations

import json
import sys

from countlo.errors import TranscriptError
from countlo.hidden.result import engine_names
from countlo.i18n import _, ljust, ngettext, rjust, width


def add_arguments(parser) -> None:
    parser.add_argument("file", metavar="FILE", help=_(
        "a countlo transcript, or counts in the documented 'rows' or 'restore' format ('-' reads "
        "standard input)"))
    parser.add_argument("--format", choices=("countlo", "rows", "restore"),
                        help=_("the file's format (default: recognised from the text)"))
    parser.add_argument("--engine", type=str.lower, choices=("auto", *engine_names()), default="auto",
                        help=_("reconstruction engine (default auto: exact on boards up to 8 wide, "
                               "which also gives per-cell chances; linear on wider boards)"))
    parser.add_argument("--explain", action="store_true",
                        help=_("walk through the steps: what each count implied, boards left"))
    parser.add_argument("--json", action="store_true", help=_("print the result as JSON"))


def run(args) -> int:
    from countlo.formats import hand as formats
    from countlo.formats.transcript import ImpossibleCountsError
    from countlo.play import review as explain

    try:
        if args.file == "-":
            t = formats.parse(sys.stdin.read(), "<stdin>", args.format)
        else:
            t = formats.load(args.file, args.format)
    except ImpossibleCountsError as e:
        tape = e.tape
        r = explain.replay_impossible(tape.shape, [s.cell for s in tape.steps],
                                      [tape.start] + [s.count for s in tape.steps],
                                      tape.count_lines)
        return _report(r, args, e.problems[0])
    except TranscriptError as e:
        return _malformed(e, args)
    if t.record is None:
        last = max([1] + [ev.line for ev in t.events])
        return _malformed(TranscriptError([(last, _("no 'start COUNT' line: nothing to replay"))],
                                          t.source), args)
    return _report(explain.replay(t.record, t.count_lines, args.engine), args, None, t.format)


def _malformed(e: TranscriptError, args) -> int:
    if args.json:
        print(json.dumps({"status": "malformed", "problems": [
            {"line": n, "message": m} for n, m in e.problems]}))
    for n, m in e.problems:
        sys.stderr.write(f"{e.source}:{n}: {m}\n")
    return 2


def as_json(r, nested: bool = True) -> dict:
    """The JSON object of a replay. `start`, `quiet_pattern` (the proof a board cannot be cleared)
    and `probabilities` (of each cell having started lit, when ambiguous) are row-major grids or
    null; `finish` lists 1-based [row, col] clicks and `finish_counts` the count after each."""
    shape = r.shape

    def grid(bits):
        return None if bits is None else [
            [bits >> (i * shape.cols + c) & 1 for c in range(shape.cols)] for i in range(shape.rows)]

    probabilities = None if r.marginals is None else [
        [round(p, 4) for p in r.marginals[i * shape.cols:(i + 1) * shape.cols]]
        for i in range(shape.rows)]
    return {
        "rows": shape.rows,
        "cols": shape.cols,
        "status": r.status,
        "start": grid(r.start),
        "determined_after": r.determined_after,
        "finish": [[f.cell // shape.cols + 1, f.cell % shape.cols + 1] for f in r.finish],
        "finish_counts": [f.count for f in r.finish],
        "finish_exact": r.finish_exact if r.finish else None,
        "clearable": r.clearable,
        "possible": r.possible,
        "possible_exact": r.possible_exact,
        "engine": r.engine,
        "probabilities": probabilities,
        "quiet_pattern": grid(r.witness),
        "typo": [{"line": t.line, "step": t.step, "written": t.written, "suggested": t.suggested}
                 for t in r.typos],
        **({"corrected": None if r.corrected is None else as_json(r.corrected, False)}
           if nested else {}),
    }


def _report(r, args, problem, fmt: str = "countlo") -> int:
    if args.json:
        print(json.dumps(as_json(r)))
    else:
        source = "<stdin>" if args.file == "-" else args.file
        lines = render(r, source, args.explain, problem)
        if r.status == "ambiguous" and fmt == "countlo" and args.file != "-":
            lines.append(_("Carry on with: {command}").format(
                command=f"countlo play --resume {args.file}"))
        print("\n".join(lines))
    return 1 if r.status == "contradictory" else 0


# --- text -----------------------------------------------------------------------------------

def _step_text(r, step: int) -> str:
    """'step 4 (line 12: C4 -> 17)'; step 0 is the starting count."""
    line = r.count_lines[step] if step < len(r.count_lines) else 0
    if step == 0:
        return _("the starting count (line {line}: start {count})").format(line=line,
                                                                          count=r.counts[0])
    return _("step {step} (line {line}: {cell} -> {count})").format(
        step=step, line=line, cell=r.shape.name(r.cells[step - 1]), count=r.counts[step])


def _panels(shape, *panels) -> list[str]:
    """Grids side by side under their titles: (title, bitset, lit char, dark char)."""
    from countlo.formats.textgrid import side_by_side

    return side_by_side(shape, [(t, shape.to_rows(b), on, off) for t, b, on, off in panels]
                        ).rstrip("\n").split("\n")


def render(r, source: str, explain: bool = False, problem=None) -> list[str]:
    """The replay report as lines of text."""
    shape = r.shape
    n = len(r.cells)
    out = [ngettext("{source}: {shape} board, starting count {count}, {n} click",
                    "{source}: {shape} board, starting count {count}, {n} clicks", n).format(
        source=source, shape=shape, count=r.counts[0], n=n)]
    if explain and r.record is not None:
        out += [""] + _walk(r)
    out.append("")
    if r.status == "contradictory":
        out += _contradiction(r, problem)
        if r.corrected is not None:
            t = r.typos[0]
            out += ["", _("If line {line} should read {count}:").format(line=t.line,
                                                                         count=t.suggested)]
            out += _outcome(r.corrected)
        return out
    return out + _outcome(r)


def _outcome(r) -> list[str]:
    """What a consistent record says: the board and the finishing plan, or the boards left."""
    from countlo.formats.textgrid import percent_grid

    shape, out = r.shape, []
    if r.status == "ambiguous":
        if r.possible_exact:
            out.append(ngettext("Not determined yet: {n} board fits these counts.",
                                "Not determined yet: {n} boards fit these counts.",
                                r.possible).format(n=r.possible))
        else:
            out.append(_("Not determined yet: at least {n} boards fit these counts.").format(
                n=r.possible))
        if r.marginals is not None:
            out.append(_("Chance that each cell started lit, in percent:"))
            out += percent_grid(shape, r.marginals)
        else:
            out.append(_("(--engine exact gives each cell's chance of having started lit; slow on "
                         "wide boards)"))
        out.append(_("Click more cells to pin it down (the finishing plan needs the board)."))
        return out
    if r.determined_after == 0:
        out.append(_("The hidden start was known from the starting count alone."))
    else:
        out.append(_("The hidden start was known after {step}.").format(
            step=_step_text(r, r.determined_after)))
    lit = bin(r.lights).count("1")
    panels = [(_("hidden start"), r.start, "#", "."),
              (_("now ({n} lit)").format(n=lit), r.lights, "#", ".")]
    if not r.lights:
        return out + _panels(shape, *panels) + ["", _("The lights are all out: this game is won.")]
    if not r.clearable:
        return out + _panels(shape, *panels, (_("quiet pattern"), r.witness, "Q", ".")) + \
            [""] + _unclearable(r)
    presses = sum(1 << f.cell for f in r.finish)
    out += _panels(shape, *panels, (_("to click"), presses, "X", "."))
    n, done = len(r.finish), len(r.cells)
    out.append("")
    fewest = _("the fewest possible") if r.finish_exact else _("fewest not proven")
    out.append(ngettext("Finish in {n} click ({fewest}; {done} so far, {total} in all), each with "
                        "the count it should show:",
                        "Finish in {n} clicks ({fewest}; {done} so far, {total} in all), each "
                        "with the count it should show:", n).format(
        n=n, fewest=fewest, done=done, total=done + n))
    per_line = 6
    items = [f"{shape.name(f.cell)} -> {f.count}" for f in r.finish]
    wide = max(len(x) for x in items)
    for i in range(0, n, per_line):
        out.append("  " + "   ".join(x.ljust(wide) for x in items[i:i + per_line]).rstrip())
    return out


def _contradiction(r, problem) -> list[str]:
    out = [_("Contradictory: no {shape} board shows these counts.").format(shape=r.shape)]
    if problem is not None:
        out.append(_("Line {line}: {problem}.").format(line=problem[0], problem=problem[1]))
    else:
        out.append(_("The counts stop fitting one board at {step}: look at that line or an "
                     "earlier one.").format(step=_step_text(r, r.stops_at)))
    if not r.typos:
        out.append(_("No single corrected count makes them fit: more than one count is wrong."))
        return out
    from countlo.ui.wording import where

    best = r.typos[0]
    what = where(best.step)
    out.append(_("Most likely typo: line {line} ({what}): written {written}, probably "
                 "{suggested}.").format(line=best.line, what=what, written=best.written,
                                        suggested=best.suggested))
    if len(r.typos) > 1:
        others = "; ".join(_("line {line}: {written} -> {suggested}").format(
            line=t.line, written=t.written, suggested=t.suggested) for t in r.typos[1:8])
        more = _(" and {n} more").format(n=len(r.typos) - 8) if len(r.typos) > 8 else ""
        out.append(_("Other single corrections that fit: {others}{more}.").format(
            others=others, more=more))
    return out


def _unclearable(r) -> list[str]:
    overlap = bin(r.lights & r.witness).count("1")
    return _("These lights can never all be turned off. Proof: every click toggles an even number\n"
             "(0, 2 or 4) of the cells marked Q (a quiet pattern), so the number of lit cells among\n"
             "them never changes parity. {n} of them are lit now, an odd number, so they can\n"
             "never all be dark.").format(n=overlap).split("\n")


def _left(note) -> str:
    return str(note.possible) if note.possible_exact else f"{note.possible}+"


def _walk(r) -> list[str]:
    """The --explain table: one row per count, with what it implied and the boards left."""
    from countlo.play.review import step_notes

    exact = r.engine == "exact"
    heads = [_("step"), _("line"), _("click"), _("count"), _("change"),
             _("lit in N(k) before")] + ([_("cells known")] if exact else []) + [_("boards left")]
    # each column as wide as its heading or its widest value, measured in terminal columns
    cols = [max(w, width(h)) for w, h in zip([4, 4, 5, 5, 6, 18] + ([11] if exact else []) + [0],
                                             heads)]
    rows = ["  ".join(ljust(h, c) for h, c in zip(heads, cols)).rstrip()]
    became = broke = None
    for note in step_notes(r.record, r.engine):
        line = r.count_lines[note.step] if note.step < len(r.count_lines) else 0
        flag = ""
        if note.possible == 1 and became is None and note.step:
            became, flag = note.step, "  <- " + _("known")
        elif note.possible == 0 and broke is None:
            broke, flag = note.step, "  <- " + _("no board fits from here")
        if note.step == 0:
            click, change, implied = _("start"), "", ""
        else:
            click, change = r.shape.name(note.cell), f"{note.change:+}"
            implied = _("{lit} of {around}").format(lit=note.lit_before, around=note.around)
        cells = [rjust(str(note.step), cols[0]), rjust(str(line), cols[1]), ljust(click, cols[2]),
                 rjust(str(note.count), cols[3]), rjust(change, cols[4]), rjust(implied, cols[5])]
        if exact:
            cells.append(rjust("" if note.known is None else str(note.known), cols[6]))
        rows.append("  ".join(cells) + "  " + _left(note) + flag)
    if r.impossible and r.stops_at < len(r.counts):
        i = r.stops_at
        line = r.count_lines[i] if i < len(r.count_lines) else 0
        click = _("start") if i == 0 else r.shape.name(r.cells[i - 1])
        rows.append("  ".join([rjust(str(i), cols[0]), rjust(str(line), cols[1]),
                               ljust(click, cols[2]), rjust(str(r.counts[i]), cols[3])]) +
                    "  <- " + _("no click can show this"))
    return rows
