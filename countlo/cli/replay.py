"""`countlo replay FILE`: rebuild the hidden start from a transcript and give the finishing plan.

Exit codes: 0 when the counts fit some board (determined, or ambiguous with the number of boards
left), 1 when they are contradictory (with the line to look at and the likely typo), 2 when the
file is malformed (every problem with its line).
"""

from __future__ import annotations

import argparse
import sys

from countlo.errors import TranscriptError
from countlo.hidden.result import engine_names
from countlo.i18n import _, ljust, ngettext, rjust, width
from countlo.ui.rulewords import rules_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `replay --help` loads none
if TYPE_CHECKING:
    from typing import Any

    from countlo.countboard import CountBoard
    from countlo.formats.transcript import Tape
    from countlo.hidden.record import Record
    from countlo.play.review import Replay, StepNote

    Problem = tuple[int, str]  # (line, what is wrong there): the first count no board shows


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_(
        "a countlo transcript, or counts in the documented 'rows' or 'restore' format ('-' reads "
        "standard input)"))
    parser.add_argument("--format", choices=("countlo", "rows", "restore"),
                        help=_("the file's format (default: recognised from the text)"))
    parser.add_argument("--size", metavar="RxC", help=_(
        "the board size, for a 'restore' file of a board that is not square or a 'rows' table of a "
        "game not finished (a '# size: RxC' line in the file works too)"))
    parser.add_argument("--engine", type=str.lower, choices=("auto", *engine_names()), default="auto",
                        help=_("reconstruction engine (default auto: exact on boards up to 8 wide "
                               "and 480 cells, which also gives per-cell chances; linear on larger "
                               "boards). Limits: exact 480 cells, 10 wide; z3 4096 cells; linear "
                               "16384"))
    parser.add_argument("--explain", action="store_true",
                        help=_("walk through the steps: what each count implied, boards left"))
    parser.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    parser.add_argument("--image", metavar="FILE.png|FILE.svg",
                        help=_("also draw the hidden start, the lights now and the clicks that "
                               "finish (or the quiet pattern proving they cannot)"))
    from countlo.cli.rules_args import add_rule_arguments

    add_rule_arguments(parser, boards=False)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace  # the parser (replay --help) loads no dataclasses

    from countlo.board import Shape
    from countlo.formats import hand as formats
    from countlo.formats.text import TRANSCRIPT_BYTES, read_stdin, read_text
    from countlo.formats.transcript import ImpossibleCountsError, Tape, TapeStep, count_problems
    from countlo.hidden.record import Record
    from countlo.play import review as explain

    if args.image is not None:
        from countlo.formats.image import check_path

        check_path(args.image)
    from countlo.cli.rules_args import given, rules_of

    if given(args):  # a bad rule option is bad input whatever the file holds, even impossible counts
        rules_of(args)
    shape = Shape.parse(args.size) if args.size is not None else None
    fmt = args.format
    try:
        source = "<stdin>" if args.file == "-" else args.file
        text = read_stdin(TRANSCRIPT_BYTES, source) if args.file == "-" else read_text(args.file)
        fmt = fmt or formats.detect(text, source)
        t = formats.parse(text, source, fmt, shape)
    except ImpossibleCountsError as e:
        # counts checked under the file's rules; the rule options may name others (a version-1
        # transcript or a hand format), under which they can fit
        tape = replace(e.tape, shape=_under_rules(e.tape.shape, args, e.source))
        problems = count_problems(tape) if tape.shape != e.tape.shape else e.problems
        start, steps = tape.parsed()  # impossible counts are raised only when every line parsed
        if not problems:
            check_size(tape.shape, args.engine)
            record = Record(tape.shape, start, steps)
            return _report(explain.replay(record, tape.count_lines, args.engine), args, None, fmt or "countlo")
        return _impossible(tape, problems[0], args)
    except TranscriptError as e:
        return _malformed(e, args)
    if t.record is None:
        last = max([1] + [ev.line for ev in t.events])
        return _malformed(TranscriptError([(last, _("no 'start COUNT' line: nothing to replay"))],
                                          t.source), args)
    board = _under_rules(t.shape, args, t.source)
    if board != t.shape:  # counts that fit the file's rules may not fit the options' ones
        tape = Tape(board, t.record.start, tuple(TapeStep(s.cell, s.count) for s in t.record.steps),
                    t.count_lines[0], tuple(t.line_of_step), tuple(t.count_lines))
        problems = count_problems(tape)
        if problems:
            return _impossible(tape, problems[0], args)
    check_size(board, args.engine)
    record = Record(board, t.record.start, t.record.steps)
    return _report(explain.replay(record, t.count_lines, args.engine), args, None, t.format)


def _impossible(tape: Tape, problem: Problem, args: argparse.Namespace) -> int:
    """The contradiction report: the first count no board shows, and the likely typo."""
    from countlo.play import review as explain

    check_size(tape.shape, "auto")
    start, steps = tape.parsed()
    r = explain.replay_impossible(tape.shape, [s.cell for s in steps],
                                  [start] + [s.count for s in steps], tape.count_lines)
    return _report(r, args, problem)


def _under_rules(shape: CountBoard, args: argparse.Namespace, source: str) -> CountBoard:
    """The file's board under the rule options: they name the rules of a file that does not (a
    version-1 transcript or a hand format); a file naming other rules is refused."""
    from countlo.board import Shape
    from countlo.cli.rules_args import given, rules_of
    from countlo.errors import BadRuleError

    if not given(args):
        return shape
    if not isinstance(shape, Shape):  # a press board: the transcript's header says it all
        raise BadRuleError(_("{source} is played on {board}: leave out the board and rule options").format(
            source=source, board=shape))
    rules = rules_of(args)
    if rules == shape.rules:
        return shape
    if not shape.rules.classic or shape.rules.target != "dark":
        targets = shape.rules.target != rules.target  # else 'target lit, not ...' hides the difference
        raise BadRuleError(_("{source} is played under {rules}, not {other}").format(
            source=source, rules=rules_text(shape.rules, targets), other=rules_text(rules, targets)))
    return shape.with_rules(rules)


LINEAR_CELLS = 1 << 14
"""Largest board replayed by the linear engine: its elimination keeps rows as long as the
board (a 65535x65535 header would ask for 4.3e9-entry rows); 128x128 takes seconds."""
Z3_CELLS = 1 << 12


def check_size(shape: CountBoard, engine: str) -> None:
    """Refuse, in one line and before any table is built, a board the engine cannot replay."""
    from countlo.board import Shape
    from countlo.errors import BadSizeError
    from countlo.play.review import EXACT_CELLS, EXACT_SIDE, choose_engine

    chosen = choose_engine(shape, engine)
    limits = {"linear": (LINEAR_CELLS, ""), "z3": (Z3_CELLS, ""),
              "exact": (EXACT_CELLS, _(" and at most {n} cells on its shorter side").format(
                  n=EXACT_SIDE + 2))}
    cells, more = limits[chosen]
    side = min(shape.rows, shape.cols) if isinstance(shape, Shape) else 0
    if shape.cells > cells or (chosen == "exact" and side > EXACT_SIDE + 2):
        raise BadSizeError(_("the {engine} engine replays boards of at most {cells} cells{more}; "
                             "{shape} is too large").format(engine=chosen, cells=cells, more=more,
                                                            shape=shape)
                           + (_(" (try --engine linear)") if shape.cells <= LINEAR_CELLS else ""))


LISTED = 50  # problems of a malformed file listed one a line (--json lists them all)


def _malformed(e: TranscriptError, args: argparse.Namespace) -> int:
    """Every problem with its line on standard output (the report), one line on stderr."""
    import json

    if args.json:
        from countlo.formats.jsonshape import JSON_SCHEMA

        print(json.dumps({"schema": JSON_SCHEMA, "status": "malformed", "problems": [
            {"line": n, "message": m} for n, m in e.problems]}))
    elif len(e.problems) > 1:
        shown = e.problems[:LISTED]
        print("\n".join(f"{e.source}:{n}: {m}" for n, m in shown))
        rest = len(e.problems) - len(shown)
        if rest:  # a file that is not a transcript at all (a README) would list every line
            print(ngettext("{source}: {n} more problem not listed; is it a transcript?",
                           "{source}: {n} more problems not listed; is it a transcript?", rest).format(
                source=e.source, n=f"{rest:,}"))
    more = len(e.problems) - 1
    listed = (ngettext(" (and {n} more problem, listed on standard output)",
                       " (and {n} more problems, listed on standard output)", more).format(n=more)
              if more else "")
    if len(e.problems) > LISTED and not args.json:
        listed = _(" (and {n} more problems; the first {shown} on standard output)").format(
            n=f"{more:,}", shown=LISTED)
    n, m = e.problems[0] if e.problems else (0, _("empty"))
    sys.stderr.write(f"countlo replay: {e.source}:{n}: {m}{listed}\n")
    return 2


def as_json(r: Replay, nested: bool = True) -> dict[str, Any]:
    """The JSON object of a replay, in the shape every command shares (docs/json.md). `start`
    (the hidden start), `lights` (the lights after the last step), `quiet_pattern` (the proof a
    board cannot be cleared) and `probabilities` (of each cell having started lit, when ambiguous)
    are row-major grids or null; `finish` lists 1-based [row, column] clicks and `finish_counts`
    the count after each."""
    from countlo.board import Shape
    from countlo.countboard import PressBoard
    from countlo.formats.jsonshape import bit_grid as grid_bits
    from countlo.formats.jsonshape import board_head
    from countlo.formats.jsonshape import cell_pair as grid_pair

    shape = r.shape
    if isinstance(shape, Shape):
        probabilities: list[Any] | None = None if r.marginals is None else [
            [round(p, 4) for p in r.marginals[i * shape.cols:(i + 1) * shape.cols]]
            for i in range(shape.rows)]
        head, target = board_head(shape), shape.rules.target
    else:  # a press board: lights in their order, a 0/1 (or a chance) each; clicks by name
        assert isinstance(shape, PressBoard)
        probabilities = None if r.marginals is None else [round(p, 4) for p in r.marginals]
        head, target = board_head(shape.board), shape.target

    def bit_grid(board: CountBoard, bits: int | None) -> Any:
        if isinstance(board, Shape):
            return grid_bits(board, bits)
        return None if bits is None else [bits >> i & 1 for i in range(board.cells)]

    def cell_pair(board: CountBoard, cell: int) -> Any:
        return grid_pair(board, cell) if isinstance(board, Shape) else board.name(cell)

    return {
        **(head if nested else {}),
        "target": target,
        "status": r.status,
        "start_count": r.counts[0] if r.counts else None,
        "start": bit_grid(shape, r.start),
        "lights": bit_grid(shape, r.lights),
        "determined_after": r.determined_after,
        "finish": [cell_pair(shape, f.cell) for f in r.finish],
        "finish_counts": [f.count for f in r.finish],
        "finish_exact": r.finish_exact if r.finish else None,
        "clearable": r.clearable,
        "possible": r.possible,
        "possible_exact": r.possible_exact,
        "engine": r.engine,
        "probabilities": probabilities,
        "quiet_pattern": bit_grid(shape, r.witness),
        "typo": [{"line": t.line, "step": t.step, "written": t.written, "suggested": t.suggested}
                 for t in r.typos],
        **({} if r.typos_searched else {"typo_searched": False}),
        **({"corrected": None if r.corrected is None else as_json(r.corrected, False)}
           if nested else {}),
    }


def _report(r: Replay, args: argparse.Namespace, problem: Problem | None, fmt: str = "countlo") -> int:
    import json

    from countlo.board import Shape

    if args.image is not None and not isinstance(r.shape, Shape):  # refuse a picture too big before printing
        from countlo.countboard import PressBoard
        from countlo.formats.figures import drawing
        from countlo.formats.image import check_fits

        assert isinstance(r.shape, PressBoard)
        check_fits(drawing(r.shape.board)[0], 3, args.image)
    if args.json:
        print(json.dumps(as_json(r)))
    else:
        source = "<stdin>" if args.file == "-" else args.file
        lines = render(r, source, args.explain, problem)
        if r.status == "ambiguous" and fmt == "countlo" and args.file != "-":
            lines.append(_("Carry on with: {command}").format(command=f"countlo play --resume {args.file}"))
        from countlo.ui.layout import wrapped

        print(wrapped("\n".join(lines), sys.stdout))
    # 1 as for an unsolvable board in `solve`: the counts contradict, or no click can clear them
    code = 1 if r.status == "contradictory" or r.clearable is False else 0
    if args.image is not None:
        code = max(code, _draw(r, args))
    return code


def _draw(r: Replay, args: argparse.Namespace) -> int:
    """Write the --image picture of the replay (of its corrected record when one typo explains a
    contradiction); 1 with one line on stderr when there is no known start to draw."""
    from countlo.formats import figures
    from countlo.formats.image import save

    note = ""
    if r.status == "contradictory" and r.corrected is not None:
        t = r.typos[0]
        note = _(" (with line {line} read as {count})").format(line=t.line, count=t.suggested)
        r = r.corrected
    if r.status != "determined":
        why = (_("the counts contradict each other") if r.status == "contradictory" else
               _("the hidden start is not known yet"))
        sys.stderr.write("countlo replay: " + _("--image {path}: {why}; no picture written").format(
            path=args.image, why=why) + "\n")
        return 1
    finish = sum(1 << f.cell for f in r.finish)
    if r.determined_after == 0:
        known = _("The hidden start was known from the starting count alone{note}.").format(note=note)
    else:
        known = _("The hidden start was known after step {step}{note}.").format(
            step=r.determined_after, note=note)
    from countlo.board import Shape

    if isinstance(r.shape, Shape):
        save(figures.replayed(r.shape, _given(r.start, "start"), _given(r.lights, "lights"),
                              finish if r.clearable else None, None if r.clearable else r.witness, known,
                              r.finish_exact), args.image)
    else:  # a press board (Merlin, holes, a graph, a press map): drawn as `solve` draws that board
        from countlo.board import values
        from countlo.countboard import PressBoard
        from countlo.formats.netimage import save as save_network
        from countlo.formats.network import Network

        assert isinstance(r.shape, PressBoard)
        drawn, spread, _words = figures.drawing(r.shape.board)
        n = r.shape.cells

        def spread_bits(x: int) -> list[int]:
            return spread(values(x, n))

        picture = figures.replayed_states(
            drawn, spread_bits(_given(r.start, "start")), spread_bits(_given(r.lights, "lights")),
            spread_bits(finish) if r.clearable else None,
            None if r.clearable else spread_bits(_given(r.witness, "quiet pattern")), known, r.finish_exact,
            bool(r.shape.goal))
        (save_network if isinstance(drawn, Network) else save)(picture, args.image)
    if not args.json:
        print(_("picture: {path}").format(path=args.image))
    return 0


# --- text -----------------------------------------------------------------------------------

def _given(value: int | None, what: str) -> int:
    """`value` of a Replay field that play.review.replay always sets in the state it is read in
    (the start and lights of a determined replay, the quiet pattern of an unclearable one, ...)."""
    if value is None:
        raise ValueError(f"a replay without its {what}")
    return value


def _step_text(r: Replay, step: int) -> str:
    """'step 4 (line 12: C4 -> 17)'; step 0 is the starting count."""
    line = r.count_lines[step] if step < len(r.count_lines) else 0
    if step == 0:
        return _("the starting count (line {line}: start {count})").format(line=line, count=r.counts[0])
    return _("step {step} (line {line}: {cell} -> {count})").format(
        step=step, line=line, cell=r.shape.name(r.cells[step - 1]), count=r.counts[step])


def _panels(shape: CountBoard, *panels: tuple[str, int, str, str]) -> list[str]:
    """Grids side by side under their titles: (title, bitset, lit char, dark char); on a press
    board (no plain grid) one line each, the title then the lights set."""
    from countlo.board import Shape, iter_bits
    from countlo.countboard import PressBoard

    if not isinstance(shape, Shape):
        def named(k: int) -> str:
            return shape.light(k) if isinstance(shape, PressBoard) else shape.name(k)

        return [f"{t}: " + (" ".join(named(k) for k in iter_bits(b)) or "-") for t, b, _on, _off in panels]
    from countlo.formats.textgrid import side_by_side

    return side_by_side(shape, [(t, shape.to_rows(b), on, off) for t, b, on, off in panels]
                        ).rstrip("\n").split("\n")


def render(r: Replay, source: str, explain: bool = False, problem: Problem | None = None) -> list[str]:
    """The replay report as lines of text."""
    from countlo.board import Shape
    from countlo.countboard import rules_of as board_words

    shape = r.shape
    n = len(r.cells)
    if not isinstance(shape, Shape):
        rules = "" if board_words(shape) == str(shape) else f" ({board_words(shape)})"
    else:
        rules = "" if shape.rules.classic and shape.rules.target == "dark" else (
            f" ({rules_text(shape.rules)})")
    out = [ngettext("{source}: {shape} board{rules}, starting count {count}, {n} click",
                    "{source}: {shape} board{rules}, starting count {count}, {n} clicks", n).format(
        source=source, shape=shape, rules=rules, count=r.counts[0], n=n)]
    if explain and r.record is not None:
        out += [""] + _walk(r, r.record)
    out.append("")
    if r.status == "contradictory":
        out += _contradiction(r, problem)
        if r.corrected is not None:
            t = r.typos[0]
            out += ["", _("If line {line} should read {count}:").format(line=t.line, count=t.suggested)]
            out += _outcome(r.corrected)
        return out
    return out + _outcome(r)


def _outcome(r: Replay) -> list[str]:
    """What a consistent record says: the board and the finishing plan, or the boards left."""
    from countlo.board import Shape
    from countlo.formats.textgrid import percent_grid

    shape, out = r.shape, []
    if r.status == "ambiguous":
        if r.possible_exact:
            out.append(ngettext("Not determined yet: {n} board fits these counts.",
                                "Not determined yet: {n} boards fit these counts.",
                                r.possible).format(n=r.possible))
        else:
            out.append(_("Not determined yet: at least {n} boards fit these counts.").format(n=r.possible))
        if r.marginals is not None:
            out.append(_("Chance that each cell started lit, in percent:"))
            out += percent_grid(shape, r.marginals) if isinstance(shape, Shape) else [
                "  " + "  ".join(f"{shape.name(k)} {round(100 * p)}" for k, p in enumerate(r.marginals))]
        else:
            out.append(_("(--engine exact gives each cell's chance of having started lit; slow on "
                         "wide boards)"))
        if r.clearable is False:  # every board left meets a quiet pattern oddly: no click helps
            out.append(_("None of them can be cleared, whatever is clicked: clicking more cannot help."))
        else:
            out.append(_("Click more cells to pin it down (the finishing plan needs the board)."))
        return out
    if r.determined_after == 0:
        out.append(_("The hidden start was known from the starting count alone."))
    else:
        out.append(_("The hidden start was known after {step}.").format(
            step=_step_text(r, _given(r.determined_after, "step the start was known after"))))
    lights = _given(r.lights, "lights")
    lit = bin(lights).count("1")
    panels = [(_("hidden start"), _given(r.start, "start"), "#", "."),
              (_("now ({lit} lit)").format(lit=lit), lights, "#", ".")]
    if lights == shape.goal:
        won = _("The lights are all on: this game is won.") if shape.goal else \
            _("The lights are all out: this game is won.")
        return out + _panels(shape, *panels) + ["", won]
    if not r.clearable:
        witness = _given(r.witness, "quiet pattern")
        return out + _panels(shape, *panels, (_("quiet pattern"), witness, "Q", ".")) + \
            [""] + _unclearable(r, lights, witness)
    presses = sum(1 << f.cell for f in r.finish)
    out += _panels(shape, *panels, (_("to click"), presses, "X", "."))
    n, done = len(r.finish), len(r.cells)
    out.append("")
    fewest = _("the fewest possible") if r.finish_exact else _("fewest not proven")
    out.append(ngettext("Finish in {n} click ({fewest}; {done} so far, {total} in all), each with the "
                        "count it should show:",
                        "Finish in {n} clicks ({fewest}; {done} so far, {total} in all), each with the "
                        "count it should show:", n).format(n=n, fewest=fewest, done=done, total=done + n))
    per_line = 6
    items = [f"{shape.name(f.cell)} -> {f.count}" for f in r.finish]
    item_width = max(len(x) for x in items)
    for i in range(0, n, per_line):
        out.append("  " + "   ".join(x.ljust(item_width) for x in items[i:i + per_line]).rstrip())
    return out


def _contradiction(r: Replay, problem: Problem | None) -> list[str]:
    out = [_("Contradictory: no {shape} board shows these counts.").format(shape=r.shape)]
    if problem is not None:
        out.append(_("Line {line}: {problem}.").format(line=problem[0], problem=problem[1]))
    else:
        out.append(_("The counts stop fitting one board at {step}: look at that line or an earlier "
                     "one.").format(step=_step_text(r, _given(r.stops_at, "first contradiction"))))
    if not r.typos and not r.typos_searched:
        from countlo.hidden.diagnose import MAX_COUNTS

        out.append(_("(No search for a single mistyped count: it is limited to records of {most} "
                     "counts, and this one has {n}.)").format(most=MAX_COUNTS, n=len(r.counts)))
        return out
    if not r.typos:
        out.append(_("No single corrected count makes them fit: more than one count is wrong."))
        return out
    from countlo.ui.wording import where

    best = r.typos[0]
    what = where(best.step)
    out.append(_("Most likely typo: line {line} ({where}): written {written}, probably "
                 "{suggested}.").format(line=best.line, where=what, written=best.written,
                                        suggested=best.suggested))
    if len(r.typos) > 1:
        others = "; ".join(_("line {line}: {written} -> {suggested}").format(
            line=t.line, written=t.written, suggested=t.suggested) for t in r.typos[1:8])
        more = _(" and {n} more").format(n=len(r.typos) - 8) if len(r.typos) > 8 else ""
        out.append(_("Other single corrections that fit: {others}{more}.").format(others=others, more=more))
    return out


def _unclearable(r: Replay, lights: int, witness: int) -> list[str]:
    overlap = bin(lights & witness).count("1")
    if not r.shape.classic or r.shape.goal:
        goal = bin(r.shape.goal & witness).count("1")
        if r.shape.goal:
            text = _("These lights can never reach the goal. Proof: every click toggles an even number "
                     "of the cells marked Q,\nso the number of lit cells among them never changes "
                     "parity: {overlap} are lit now, {goal} would be all lit.")
        else:
            text = _("These lights can never reach the goal. Proof: every click toggles an even number "
                     "of the cells marked Q,\nso the number of lit cells among them never changes "
                     "parity: {overlap} are lit now, {goal} would be all dark.")
        return text.format(overlap=overlap, goal=goal).split("\n")
    return _("These lights can never all be turned off. Proof: every click toggles an even number\n"
             "(0, 2 or 4) of the cells marked Q (a quiet pattern), so the number of lit cells among\n"
             "them never changes parity. {overlap} of them are lit now, an odd number, so they can\n"
             "never all be dark.").format(overlap=overlap).split("\n")


def _left(note: StepNote) -> str:
    return str(note.possible) if note.possible_exact else f"{note.possible}+"


def _walk(r: Replay, record: Record) -> list[str]:
    """The --explain table: one row per count, with what it implied and the boards left."""
    from countlo.play.review import step_notes

    exact = r.engine == "exact"
    # the column titles in the language spoken, each column as wide as its title or its numbers
    # (in terminal columns: a Chinese title's characters take two)
    titles = [_("step"), _("line"), _("click"), _("count"), _("change"), _("lit in N(k) before")]
    wide = [max(w, width(t)) for w, t in zip((4, 4, 5, 5, 6, 18), titles)]
    known_title = _("cells known")
    known_wide = max(11, width(known_title))
    rows = ["  ".join(ljust(t, w) if i == 2 else rjust(t, w) for i, (t, w) in enumerate(zip(titles, wide)))
            + "  " + (rjust(known_title, known_wide) + "  " if exact else "") + _("boards left")]
    became = broke = None
    for note in step_notes(record, r.engine):
        line = r.count_lines[note.step] if note.step < len(r.count_lines) else 0
        flag = ""
        if note.possible == 1 and became is None and note.step:
            became, flag = note.step, "  " + _("<- known")
        elif note.possible == 0 and broke is None:
            broke, flag = note.step, "  " + _("<- no board fits from here")
        if note.cell is None:  # step 0, the starting count
            click, change, implied = _("start"), "", ""
        else:
            click, change = r.shape.name(note.cell), f"{note.change:+}"
            implied = _("{lit} of {around}").format(lit=note.lit_before, around=note.around)
        known = (rjust(f"{'' if note.known is None else note.known}", known_wide) + "  " if exact else "")
        rows.append(f"{note.step:>{wide[0]}}  {line:>{wide[1]}}  {ljust(click, wide[2])}  "
                    f"{note.count:>{wide[3]}}  {change:>{wide[4]}}  "
                    f"{rjust(implied, wide[5])}  {known}{_left(note)}{flag}")
    # the count no click can show (none past the end: the record stops before it)
    i = _given(r.stops_at, "first impossible count") if r.impossible else len(r.counts)
    if i < len(r.counts):
        line = r.count_lines[i] if i < len(r.count_lines) else 0
        click = _("start") if i == 0 else r.shape.name(r.cells[i - 1])
        rows.append(f"{i:>{wide[0]}}  {line:>{wide[1]}}  {ljust(click, wide[2])}  "
                    f"{r.counts[i]:>{wide[3]}}  " + _("<- no click can show this"))
    return rows
