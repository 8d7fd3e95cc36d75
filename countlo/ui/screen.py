"""What a guided session shows: greeting, prompt (picture, advice, question), status bar,
the log line of each step, help, history and the end of the game.

`Screen` reads a `View` (the session's state: the guide, the game policy, the pending cell and
cached guide answers) and returns (style, text) fragments; it changes nothing. Sentences come
from countlo.ui.wording.
"""

from __future__ import annotations

import re
from typing import Protocol

from countlo.countboard import CountBoard
from countlo.i18n import _, language, ljust, width
from countlo.play.advice import Advice, Contradiction, Doubt, Finish, Learned, Probe, Stuck
from countlo.play.guide import Guide, Progress
from countlo.play.outlook import Outlook
from countlo.ui.entry import COMMANDS
from countlo.ui.layout import side_by_side
from countlo.ui.modes import Mode
from countlo.ui.picture import (
    NEEDED,
    SPARED,
    Fragments,
    board_picture,
    legend,
    legend_lines,
    legend_width,
    picture,
    picture_width,
    plain,
)
from countlo.ui.wording import (
    NEEDED_CLICK,
    UNDO_KEYS,
    advice_text,
    answer_text,
    boards,
    clicks,
    doubt_question,
    finish_lead,
    marks_explained,
    mistake_text,
    must_have_been,
    to_go,
    typo_found,
    undo_keys,
)

SHOWN = 3  # mistakes listed when a count does not fit (the likeliest; Enter takes the first)


def wrap(words: list[str], lead: str, columns: int = 78, style: str = "class:note",
         gap: str = "  ") -> Fragments:
    """`lead` then the words `gap` apart, wrapped under one another at `columns` columns
    (measured as the terminal shows them: a Chinese character takes two)."""
    lines, line = [], lead
    for w in words:
        if width(line) + width(w) > columns and line.strip() != lead.strip():
            lines.append(line.rstrip())
            line = " " * width(lead)
        line += w + gap
    lines.append(line.rstrip())
    return [(style, "\n".join(lines) + "\n")]


def styled(message: str, style: str, **parts: tuple[str, str]) -> Fragments:
    """A translated sentence as fragments: its text in `style`, each {name} in it replaced by
    the (style, text) of `parts[name]`, wherever the translation puts it."""
    out: Fragments = []
    for i, piece in enumerate(re.split(r"\{(\w+)\}", message)):
        if i % 2:
            out.append(parts[piece])
        elif piece:
            out.append((style, piece))
    return out


def sentence(words: str) -> str:
    """Words said on their own as a sentence: capital first letter, full stop."""
    return _("{words}.").format(words=words[:1].upper() + words[1:])


def line(*parts: tuple[str, str]) -> Fragments:
    return [*parts, ("", "\n")]


class View(Protocol):
    """The session state a Screen reads."""

    guide: Guide
    shape: CountBoard
    mode: Mode
    pending: int | None
    where: str | None
    label: str
    width: int

    @property
    def started(self) -> bool: ...
    def keeps_transcript(self) -> bool: ...
    def advice(self) -> Advice: ...
    def progress(self) -> Progress: ...
    def marginals(self) -> list[float]: ...
    def outlook(self) -> Outlook | None: ...
    def target(self) -> int | None: ...
    def accepted(self, cell: int) -> tuple[int, ...]: ...


class Screen:
    """The fragments a session shows; see the module docstring."""

    def __init__(self, view: View):
        self.view = view

    @property
    def shape(self) -> CountBoard:
        return self.view.shape

    def greeting(self) -> Fragments:
        """The lines printed once at the start: board, strategy, transcript, how to get help."""
        v, g = self.view, self.view.guide
        what = _("{shape} board, {strategy} strategy, {engine} engine").format(
            shape=self.shape, strategy=g.strategy, engine=g.engine)
        if v.label:
            what += _(", ") + v.label
        out = line(("class:advice", "countlo play"), ("", f": {what}"))
        if v.where is not None:
            out += line(("class:note", _("Transcript: {path}").format(path=v.where)))
        record = g.record
        if record is not None:
            if v.mode.simulated and not record.steps:
                out += line(("", _("The simulated game starts with {count} lit.").format(
                    count=record.start)))
            if g.done:
                solved = _("This game is already solved ({clicks}).").format(
                    clicks=clicks(len(record.steps)))
                return out + line(("class:ok", solved))
            elif record.steps:
                out += line(("", _("Resumed after {clicks}; the count is {count}.").format(
                    clicks=clicks(len(record.steps)), count=record.count)))
        keys = (_("Press Enter to make each suggested click; help lists the commands.")
                if v.mode.simulated else
                _("Type the count the game shows after each click; help lists the commands."))
        return out + line(("class:note", keys))

    # --- what the prompt shows ---------------------------------------------------------

    def prompt(self, status: bool = False) -> Fragments:
        """The prompt message: board picture, advice, the question (and a status line if asked)."""
        v = self.view
        if not v.started:
            return [("class:advice", _("Starting count shown by the game (0-{cells}): ").format(
                cells=self.shape.cells))]
        advice = v.advice()
        out: Fragments = [("", "\n")]
        if v.progress().possible > 0:  # no picture of boards when none fits the counts
            marks = self.marks()
            kinds = set(marks.values())
            beside = side_by_side(picture_width(self.shape), legend_width(kinds), v.width)
            out += picture(self.shape, v.marginals(), v.target(), legend_lines(kinds) if beside else (), marks)
            if not beside:  # too narrow for both: the legend below the board
                out += legend(kinds, v.width)
        if status:
            out += line(("class:note", plain(self.toolbar(keys=False)).strip()))
        if advice.phase == "stuck":
            return out + self._stuck(advice)  # type: ignore[arg-type]
        out += self._advice(advice)
        cell = v.target()
        if v.mode.simulated:
            if cell is None:
                return [*out, ("class:advice", _("Type the cell to click: "))]
            return out + styled(_("Enter clicks {cell} (or type another cell): "), "",
                                cell=("class:cellname", self.shape.name(cell)))
        if cell is None:
            return [*out, ("class:advice", _("Cell you clicked and its count (e.g. C4 17): "))]
        if isinstance(advice, Finish) and v.pending is None:
            hint = _("expect {count}").format(count=advice.expected)
        else:
            hint = " ".join(map(str, v.accepted(cell)))
        return out + styled(_("Count after {cell}{hint}: "), "",
                            cell=("class:cellname", self.shape.name(cell)),
                            hint=("class:note", f" [{hint}]"))

    def _doubt(self, doubt: Doubt) -> Fragments:
        """The question about a count that did not fit: the likeliest mistakes, each with what
        to type to say it was that one and its chance, Enter taking the first."""
        g, columns = self.view.guide, self.view.width - 2
        record = g.record
        cells = ([s.cell for s in record.steps] if record is not None else []) + [h.cell for h in doubt.held]
        shown = doubt.suspects[:SHOWN]
        if self.view.pending is not None and doubt.telling is not None:  # making the telling click
            cell = self.view.pending
            out = self._telling(doubt, cells)
            return out + styled(_("Count after {cell}{hint}: "), "",
                                cell=("class:cellname", self.shape.name(cell)),
                                hint=("class:note", " [" + " ".join(str(k) for k, _i in doubt.telling.outcomes) + "]"))
        out = wrap(doubt_question(self.shape, doubt, cells).split(), "", columns, "class:warn", " ")
        if not shown:
            return out + [("class:warn", _("Type undo (the count is taken back), history or quit: "))]
        answers = [answer_text(self.shape, s.mistake, doubt) for s in shown]
        pad = max(width(a) for a in answers)
        for s, typed in zip(shown, answers):
            said = _("{what} ({chance})").format(what=mistake_text(self.shape, s.mistake, doubt, cells),
                                                  chance=f"{s.chance:.0%}")
            lead = "  " + ljust(typed, pad) + "  "
            text = wrap(said.split(), " " * width(lead), columns, "class:note", " ")[0][1]
            out += [("class:advice", lead), ("class:note", text[width(lead):])]
        if doubt.telling is not None:
            out += self._telling(doubt, cells)
            return [*out, ("class:warn", _("Your answer (Enter: click {cell}), or undo: ").format(
                cell=self.shape.name(doubt.telling.cell)))]
        default = g.default_answer()
        if default is None:
            return [*out, ("class:warn", _("Your answer, restart, or undo: "))]
        return [*out, ("class:warn", _("Your answer (Enter: {answer}), or undo: ").format(
            answer=answer_text(self.shape, default, doubt)))]

    def _telling(self, doubt: Doubt, cells: list[int]) -> Fragments:
        """The click that tells the suspects apart, and what each of its counts would mean."""
        telling = doubt.telling
        assert telling is not None
        columns = self.view.width - 2
        out = wrap(_("Not sure? Click {cell} and type its count:").format(
            cell=self.shape.name(telling.cell)).split(), "", columns, "class:advice", " ")
        shown = len(doubt.suspects[:SHOWN])
        for k, which in telling.outcomes:
            listed = [i for i in which if i < shown]  # the click may tell apart suspects not listed too
            if len(listed) == shown:
                continue  # a count every suspect listed allows tells nothing about them
            said = (_(" or ").join(mistake_text(self.shape, doubt.suspects[i].mistake, doubt, cells) for i in listed)
                    if listed else _("none of these: another mistake"))
            lead = "  " + _("{count} means").format(count=k) + " "
            out += wrap(said.split(), lead, columns, "class:note", " ")
        return out

    def _stuck(self, advice: Stuck) -> Fragments:
        """Why no click can be advised, and the fixes that would let the game go on."""
        if isinstance(advice, Doubt):
            return self._doubt(advice)
        fixes = advice.fixes if isinstance(advice, Contradiction) else ()
        if not fixes:
            return wrap(advice_text(self.shape, advice).split(), "", self.view.width - 2, "class:warn", " ") + \
                line(("class:note", _("If the last count was a typo, undo ({keys}) and type it "
                                      "again.").format(keys=undo_keys()))) + \
                [("class:warn", _("Type undo, fix STEP COUNT, history or quit: "))]
        out = line(("class:warn",
                    _("These counts contradict each other; one typo would explain it:")))
        record = self.view.guide.record
        for f in fixes:
            if f.step == 0 or record is None:
                what = _("the starting count was {suggested}, not {written}").format(
                    suggested=f.suggested, written=f.written)
            else:
                step = record.steps[f.step - 1]
                what = _("step {step}, {cell}, showed {suggested}, not {written}").format(
                    step=f.step, cell=self.shape.name(step.cell), suggested=f.suggested,
                    written=f.written)
            out += line(("class:advice", f"  fix {f.step} {f.suggested}"), ("class:note", f"   {what}"))
        return [*out, ("class:warn", _("Type the fix that is right, restart, or undo: "))]

    def _advice(self, advice: Advice) -> Fragments:
        v = self.view
        if v.pending is not None:
            if advice.cell not in (None, v.pending):
                said = _("You clicked {cell} instead.")
            else:
                said = _("You clicked {cell}.")
            return styled(said, "", cell=("class:cellname", self.shape.name(v.pending))) + \
                line()
        if isinstance(advice, Probe):
            return self._probe(advice)
        if not isinstance(advice, Finish):
            return line(("class:advice", advice_text(self.shape, advice, v.guide.strategy)))
        left = len(advice.plan)
        out = line(("class:ok", _("{lead}: {clicks} to go. ").format(lead=finish_lead(advice),
                                                                      clicks=clicks(left))),
                   *styled(_("Click {cell}; the count should become {count}."), "class:advice",
                           cell=("class:cellname", self.shape.name(advice.cell)),
                           count=("class:count", str(advice.expected))))
        if left > 1:
            out += wrap([f"{self.shape.name(c)} ({n})" for c, n in advice.plan[1:]], _("Then: "),
                        self.view.width - 2)
        return out

    def _outlook(self) -> Outlook | None:
        """The outlook while probing (None otherwise: a known board has its plan instead)."""
        v = self.view
        if not v.started or v.advice().phase != "probe":
            return None
        return v.outlook()

    def marks(self) -> dict[int, str]:
        """Cell -> NEEDED or SPARED for the cells the counts settle in or out of the press set,
        but the suggested one (its brackets are drawn instead; the advice says if it is needed)."""
        found = self._outlook()
        if found is None:
            return {}
        marks = {**{k: SPARED for k in found.spared}, **{k: NEEDED for k in found.needed}}
        target = self.view.target()
        if target is not None:
            marks.pop(target, None)
        return marks

    def _probe(self, advice: Probe) -> Fragments:
        """The probe advice, whether its cell is needed anyway, and the clicks still to come."""
        v = self.view
        text = advice_text(self.shape, advice, v.guide.strategy)
        found = self._outlook()
        if found is None:
            return line(("class:advice", text))
        if advice.cell is not None and advice.cell in found.needed:
            text += ", " + _(NEEDED_CLICK)
        ahead = to_go(found)
        if width(text) + width(ahead) + 3 > v.width - 2:  # one line if it fits, else two
            return line(("class:advice", text)) + line(("class:note", sentence(ahead)))
        return line(("class:advice", text), ("class:note", _("; {ahead}.").format(ahead=ahead)))

    def toolbar(self, keys: bool = True) -> Fragments:
        """The status bar: clicks so far, boards still possible, bits known, strategy."""
        v = self.view
        if not v.started:
            head = " " + _("{shape} board · {strategy}").format(shape=self.shape,
                                                                 strategy=v.guide.strategy)
        else:
            p = v.progress()
            if p.possible == 0:  # never "0 boards left · 36.0 of 36 bits", which reads as known
                head = " " + _("{clicks} · the counts contradict each other · {strategy}").format(
                    clicks=clicks(p.clicks), strategy=p.strategy)
            else:
                head = " " + _("{clicks} · {boards} left · {bits} of {cells} bits · {strategy}").format(
                    clicks=clicks(p.clicks), boards=boards(p.possible, p.tally), bits=f"{p.bits_known:.1f}",
                    cells=self.shape.cells, strategy=p.strategy)
        if not keys:
            return [("", head)]
        key = "class:bottom-toolbar.key"
        return [("", head + " · "), (key, UNDO_KEYS.split()[0]), ("", " " + _("undo") + " · "),
                (key, "help"), ("", " ")]

    def words(self) -> list[str]:
        """Completion words: commands and every cell name."""
        return list(COMMANDS) + [self.shape.name(k) for k in range(self.shape.cells)]

    # --- the log -----------------------------------------------------------------------

    def learned(self, learned: Learned, expected: int | None) -> Fragments:
        """The log line of one step: what it showed and what that taught."""
        name = self.shape.name(learned.cell)
        fix = learned.applied
        if fix is not None:
            rest = must_have_been(fix)
        elif learned.stuck is not None:
            rest = advice_text(self.shape, learned.stuck)
        else:
            rest = ""
        style = "class:warn"
        if expected == learned.count and not learned.fixes:
            style, message = "class:ok", _("as planned")
        elif expected is not None and expected != learned.count:
            message = _("expected {count}!").format(count=expected)
        elif learned.fixes or learned.possible_after == 0:
            message = _("contradicts an earlier count")
        elif learned.possible_before == learned.possible_after == 1:
            style, message = "class:note", rest
        else:
            message = _("{boards} left").format(boards=boards(learned.possible_after, learned.tally_after)) + \
                (f"; {rest}" if rest else "")
            style = "class:note"
        out = [("class:note", f"{learned.step:>4}. "), ("class:cellname", ljust(name, 3)),
               ("", " -> "), ("class:count", f"{learned.count:>2}"), (style, f"   {message}\n")]
        if fix is not None:
            out += line(("class:warn", f"      {typo_found(fix)}"))
            if fix.step != learned.step:  # the typed count itself was not the one corrected
                out += line(("class:note", "      " + _("(if {count} was the typo, undo and type it "
                                                          "again)").format(count=learned.count)))
        return out

    def summary(self, hidden: int | None) -> Fragments:
        """The end of a solved game: clicks, probes, and for a simulated game the hidden board."""
        p = self.view.progress()
        finish = p.clicks - p.probes
        goal = self.shape.goal_count
        out: Fragments = line(("class:ok", _("Solved: the count is {goal} after {clicks} ({probes} "
                                             "to find the board, {finish} to finish).").format(
            goal=goal, clicks=clicks(p.clicks), probes=p.probes, finish=finish)))
        if hidden is not None:
            out += line(("", _("The hidden board was:")))
            out += board_picture(self.shape, hidden)
            known = self.view.guide.known()
            if known is not None and known != hidden:
                out += line(("class:warn",
                             _("countlo's reconstruction differs from the hidden board!")))
        else:  # beside the real game: the start the counts reconstruct, when they determine it
            known = self.view.guide.known()
            if known is not None:
                out += line(("", _("The hidden board was (reconstructed from the counts):")))
                out += board_picture(self.shape, known)
        return out + self.leave_note()

    def leave_note(self) -> Fragments:
        """Where the transcript is, and how to carry on."""
        at = self.view.where
        if at is None:
            return []
        if not self.view.keeps_transcript():  # the file is removed: neither it nor --resume is offered
            return line(("class:note", _("No transcript kept: the game was left before its first click.")))
        out = line(("class:note", _("Transcript: {path}").format(path=at)))
        if not self.view.guide.done:
            # the command on a line of its own, so a narrow terminal never breaks it before the
            # path; in Chinese it says --lang zh, or the resumed game would speak English
            lang = " --lang zh" if language() == "zh" else ""
            out += line(("class:note", _("Carry on later with:")))
            out += line(("class:note", f"  countlo play{lang} --resume {at}"))
        return out

    def help(self) -> Fragments:
        return line(("", _(self.view.mode.help).format(keys=undo_keys())))

    def board(self) -> Fragments:
        v = self.view
        if not v.started:
            return line(("", _("No count yet: every board is possible.")))
        p = v.progress()
        marks = self.marks()
        out = [("", "\n"), *picture(self.shape, v.marginals(), v.target(), marks=marks),
               *legend(set(marks.values()), v.width)]
        if marks:
            out += wrap(marks_explained(set(marks.values())).split(), "", v.width - 2, gap=" ")
        out += line(("class:note", _("{boards} possible, {bits} of {cells} bits known").format(
            boards=boards(p.possible, p.tally), bits=f"{p.bits_known:.1f}", cells=self.shape.cells)))
        found = self._outlook()
        if found is not None:
            ahead = to_go(found)
            out += line(("class:note", sentence(ahead)))
        return out

    def history(self) -> Fragments:
        record = self.view.guide.record
        if record is None:
            return line(("", _("No count yet.")))
        out = line(("class:note", "   0. " + ljust(_("start"), 3) + " -> "),
                   ("class:count", str(record.start)))
        for i, s in enumerate(record.steps, 1):
            name = self.shape.name(s.cell)
            out += line(("class:note", f"{i:>4}. "), ("class:cellname", ljust(name, 3)),
                        ("", " -> "), ("class:count", str(s.count)))
        return out
