"""What a guided session shows: greeting, prompt (picture, advice, question), status bar,
the log line of each step, help, history and the end of the game.

`Screen` reads a `View` (the session's state: the guide, the game policy, the pending cell and
cached guide answers) and returns (style, text) fragments; it changes nothing. Sentences come
from countlo.ui.wording.
"""

from __future__ import annotations

from typing import Protocol

from countlo.board import Shape
from countlo.play.advice import Advice, Contradiction, Finish, Learned, Stuck
from countlo.play.guide import Guide, Progress
from countlo.ui.entry import COMMANDS
from countlo.ui.layout import side_by_side
from countlo.ui.modes import Mode
from countlo.ui.picture import (
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
    UNDO_KEYS,
    advice_text,
    boards,
    finish_lead,
    plural,
    typo_found,
    where,
)


def wrap(words: list[str], lead: str, width: int = 78, style: str = "class:note",
         gap: str = "  ") -> Fragments:
    """`lead` then the words `gap` apart, wrapped under one another at `width` columns."""
    lines, line = [], lead
    for w in words:
        if len(line) + len(w) > width and line.strip() != lead.strip():
            lines.append(line.rstrip())
            line = " " * len(lead)
        line += w + gap
    lines.append(line.rstrip())
    return [(style, "\n".join(lines) + "\n")]


def line(*parts: tuple[str, str]) -> Fragments:
    return [*parts, ("", "\n")]


class View(Protocol):
    """The session state a Screen reads."""

    guide: Guide
    shape: Shape
    mode: Mode
    pending: int | None
    where: str | None
    label: str
    width: int

    @property
    def started(self) -> bool: ...
    def advice(self) -> Advice: ...
    def progress(self) -> Progress: ...
    def marginals(self) -> list[float]: ...
    def target(self) -> int | None: ...
    def accepted(self, cell: int) -> tuple[int, ...]: ...


class Screen:
    """The fragments a session shows; see the module docstring."""

    def __init__(self, view: View):
        self.view = view

    @property
    def shape(self) -> Shape:
        return self.view.shape

    def greeting(self) -> Fragments:
        """The lines printed once at the start: board, strategy, transcript, how to get help."""
        v, g = self.view, self.view.guide
        what = f"{self.shape} board, {g.strategy} strategy, {g.engine} engine"
        if v.label:
            what += f", {v.label}"
        out = line(("class:advice", "countlo play"), ("", f": {what}"))
        if v.where is not None:
            out += line(("class:note", f"Transcript: {v.where}"))
        record = g.record
        if record is not None:
            if v.mode.simulated and not record.steps:
                out += line(("", f"The simulated game starts with {record.start} lit."))
            elif g.done:
                solved = f"This game is already solved ({len(record.steps)} clicks)."
                return out + line(("class:ok", solved))
            elif record.steps:
                out += line(("", f"Resumed after {len(record.steps)} clicks; "
                                 f"the count is {record.count}."))
        keys = "press Enter to make each suggested click" if v.mode.simulated else \
            "type the count the game shows after each click"
        return out + line(("class:note", f"{keys[0].upper()}{keys[1:]}; help lists the commands."))

    # --- what the prompt shows ---------------------------------------------------------

    def prompt(self, status: bool = False) -> Fragments:
        """The prompt message: board picture, advice, the question (and a status line if asked)."""
        v = self.view
        if not v.started:
            return [("class:advice", f"Starting count shown by the game (0-{self.shape.cells}): ")]
        advice = v.advice()
        out: Fragments = [("", "\n")]
        if v.progress().possible > 0:  # no picture of boards when none fits the counts
            beside = side_by_side(picture_width(self.shape), legend_width(), v.width)
            out += picture(self.shape, v.marginals(), v.target(), legend_lines() if beside else ())
            if not beside:  # too narrow for both: the legend below the board
                out += legend(v.width)
        if status:
            out += line(("class:note", plain(self.toolbar(keys=False)).strip()))
        if advice.phase == "stuck":
            return out + self._stuck(advice)  # type: ignore[arg-type]
        out += self._advice(advice)
        cell = v.target()
        if v.mode.simulated:
            if cell is None:
                return [*out, ("class:advice", "Type the cell to click: ")]
            return [*out, ("", "Enter clicks "), ("class:cellname", self.shape.name(cell)),
                    ("", " (or type another cell): ")]
        if cell is None:
            return [*out, ("class:advice", "Cell you clicked and its count (e.g. C4 17): ")]
        if isinstance(advice, Finish) and v.pending is None:
            hint = f"expect {advice.expected}"
        else:
            hint = " ".join(map(str, v.accepted(cell)))
        return [*out, ("", "Count after "), ("class:cellname", self.shape.name(cell)),
                ("class:note", f" [{hint}]"), ("", ": ")]

    def _stuck(self, advice: Stuck) -> Fragments:
        """Why no click can be advised, and the fixes that would let the game go on."""
        fixes = advice.fixes if isinstance(advice, Contradiction) else ()
        if not fixes:
            return wrap(advice_text(self.shape, advice).split(), "", self.view.width - 2, "class:warn", " ") + \
                line(("class:note", f"If the last count was a typo, undo ({UNDO_KEYS}) and type it "
                                     "again.")) + \
                [("class:warn", "Type undo, fix STEP COUNT, history or quit: ")]
        out = line(("class:warn", "These counts contradict each other; one typo would explain it:"))
        record = self.view.guide.record
        for f in fixes:
            if f.step == 0 or record is None:
                what = f"the starting count was {f.suggested}, not {f.written}"
            else:
                step = record.steps[f.step - 1]
                what = (f"step {f.step}, {self.shape.name(step.cell)}, showed {f.suggested}, "
                        f"not {f.written}")
            out += line(("class:advice", f"  fix {f.step} {f.suggested}"), ("class:note", f"   {what}"))
        return [*out, ("class:warn", "Type the fix that is right (see history), or undo: ")]

    def _advice(self, advice: Advice) -> Fragments:
        v = self.view
        if v.pending is not None:
            instead = " instead." if advice.cell not in (None, v.pending) else "."
            return line(("", "You clicked "), ("class:cellname", self.shape.name(v.pending)),
                        ("", instead))
        if not isinstance(advice, Finish):
            return line(("class:advice", advice_text(self.shape, advice, v.guide.strategy)))
        left = len(advice.plan)
        out = line(("class:ok", f"{finish_lead(advice)}: {plural(left, 'click')} to go. "),
                   ("class:advice", "Click "), ("class:cellname", self.shape.name(advice.cell)),
                   ("class:advice", "; the count should become "),
                   ("class:count", str(advice.expected)), ("class:advice", "."))
        if left > 1:
            out += wrap([f"{self.shape.name(c)} ({n})" for c, n in advice.plan[1:]], "Then: ",
                        self.view.width - 2)
        return out

    def toolbar(self, keys: bool = True) -> Fragments:
        """The status bar: clicks so far, boards still possible, bits known, strategy."""
        v = self.view
        if not v.started:
            head = f" {self.shape} board · {v.guide.strategy}"
        else:
            p = v.progress()
            head = (f" {plural(p.clicks, 'click')} · {boards(p.possible, p.tally)} left · "
                    f"{p.bits_known:.1f} of {self.shape.cells} bits · {p.strategy}")
        if not keys:
            return [("", head)]
        key = "class:bottom-toolbar.key"
        return [("", head + " · "), (key, UNDO_KEYS.split()[0]), ("", " undo · "),
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
            rest = f"{where(fix.step)} must have been {fix.suggested}, not {fix.written}: corrected"
        elif learned.stuck is not None:
            rest = advice_text(self.shape, learned.stuck)
        else:
            rest = ""
        style = "class:warn"
        if expected == learned.count and not learned.fixes:
            style, message = "class:ok", "as planned"
        elif expected is not None and expected != learned.count:
            message = f"expected {expected}!"
        elif learned.fixes or learned.possible_after == 0:
            message = "contradicts an earlier count"
        elif learned.possible_before == learned.possible_after == 1:
            style, message = "class:note", rest
        else:
            message = f"{boards(learned.possible_after, learned.tally_after)} left" + (f"; {rest}" if rest else "")
            style = "class:note"
        out = [("class:note", f"{learned.step:>4}. "), ("class:cellname", f"{name:<3}"),
               ("", " -> "), ("class:count", f"{learned.count:>2}"), (style, f"   {message}\n")]
        if fix is not None:
            out += line(("class:warn", f"      {typo_found(fix)}"))
            if fix.step != learned.step:  # the typed count itself was not the one corrected
                out += line(("class:note",
                             f"      (if {learned.count} was the typo, undo and type it again)"))
        return out

    def summary(self, hidden: int | None) -> Fragments:
        """The end of a solved game: clicks, probes, and for a simulated game the hidden board."""
        p = self.view.progress()
        finish = p.clicks - p.probes
        goal = self.shape.goal_count
        out: Fragments = line(("class:ok", f"Solved: the count is {goal} after {p.clicks} clicks "
                                           f"({p.probes} to find the board, {finish} to finish)."))
        if hidden is not None:
            out += line(("", "The hidden board was:"))
            out += board_picture(self.shape, hidden)
            known = self.view.guide.known()
            if known is not None and known != hidden:
                out += line(("class:warn", "countlo's reconstruction differs from the hidden board!"))
        return out + self.leave_note()

    def leave_note(self) -> Fragments:
        """Where the transcript is, and how to carry on."""
        at = self.view.where
        if at is None:
            return []
        out = line(("class:note", f"Transcript: {at}"))
        if not self.view.guide.done:
            out += line(("class:note", f"Carry on later with: countlo play --resume {at}"))
        return out

    def help(self) -> Fragments:
        return line(("", self.view.mode.help.format(keys=UNDO_KEYS)))

    def board(self) -> Fragments:
        v = self.view
        if not v.started:
            return line(("", "No count yet: every board is possible."))
        p = v.progress()
        out = [("", "\n"), *picture(self.shape, v.marginals(), v.target()), *legend(v.width)]
        return out + line(("class:note", f"{boards(p.possible, p.tally)} possible, "
                                          f"{p.bits_known:.1f} of {self.shape.cells} bits known"))

    def history(self) -> Fragments:
        record = self.view.guide.record
        if record is None:
            return line(("", "No count yet."))
        out = line(("class:note", "   0. start -> "), ("class:count", str(record.start)))
        for i, s in enumerate(record.steps, 1):
            name = self.shape.name(s.cell)
            out += line(("class:note", f"{i:>4}. "), ("class:cellname", f"{name:<3}"),
                        ("", " -> "), ("class:count", str(s.count)))
        return out
