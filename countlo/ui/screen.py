"""What a guided session shows: greeting, prompt (picture, advice, question), status bar,
the log line of each step, help, history and the end of the game.

`Screen` is mixed into countlo.ui.session.Session and reads its state (guide, oracle, pending
cell, cached guide answers); everything here returns (style, text) fragments and changes nothing.
"""

from __future__ import annotations

from countlo.ui.entry import COMMANDS, Entry
from countlo.ui.picture import Fragments, board_picture, legend, legend_lines, picture, plain

UNDO_KEYS = "F2 or Esc u"


HELP = """\
Type the count the game shows after each click, then press Enter.
  17          the count after the suggested click
  C4, 4 3     you clicked another cell instead (then type its count)
  C4 17       another cell and its count on one line
  17!         insist on a count countlo calls impossible: a count before was
              mistyped, and countlo looks for it
  undo        take back the last step ({keys} does the same)
  fix 3 17    step 3 really showed 17 (fix 0 N: the starting count)
  history     every step so far, to spot a typo
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
Tab completes commands and cell names; Up and Down recall earlier lines.
"""


SIM_HELP = """\
The simulated game answers for you: press Enter to make the suggested click.
  C4, 4 3     click another cell instead
  undo        take back the last click ({keys} does the same)
  history     every step so far
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
"""


def amount(n: int) -> str:
    """A count of boards for people: 1,234 up to a million, then 2.5 million, 9.1 billion."""
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.1f} {word}"
    return f"{n:,}"


def plural(n: int, word: str) -> str:
    """'1 click', '2 clicks'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def boards(n: int) -> str:
    """'1 board', '24 boards', '9.1 billion boards'."""
    return "1 board" if n == 1 else f"{amount(n)} boards"


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


def typo_found(fix) -> str:
    """The sentence for a diagnose.Fix the guide applied by itself."""
    where = "the starting count" if fix.step == 0 else f"step {fix.step}"
    return (f"Typo found: {where} must have been {fix.suggested}, not {fix.written}; "
            "corrected and re-planned")


def line(*parts: tuple[str, str]) -> Fragments:
    return list(parts) + [("", "\n")]


class Screen:
    """The fragments a Session shows; see the module docstring."""

    def greeting(self) -> Fragments:
        """The lines printed once at the start: board, strategy, transcript, how to get help."""
        g = self.guide
        what = f"{self.shape} board, {g.strategy} strategy, {g.engine} engine"
        if self.label:
            what += f", {self.label}"
        out = line(("class:advice", "countlo play"), ("", f": {what}"))
        if self.where is not None:
            out += line(("class:note", f"Transcript: {self.where}"))
        if self.started:
            record = g.record
            if self.oracle is not None and not record.steps:
                out += line(("", f"The simulated game starts with {record.start} lit."))
            elif g.done:
                solved = f"This game is already solved ({len(record.steps)} clicks)."
                return out + line(("class:ok", solved))
            elif record.steps:
                out += line(("", f"Resumed after {len(record.steps)} clicks; "
                                 f"the count is {record.count}."))
        keys = "press Enter to make each suggested click" if self.oracle is not None else \
            "type the count the game shows after each click"
        return out + line(("class:note", f"{keys[0].upper()}{keys[1:]}; help lists the commands."))

    # --- what the prompt shows ---------------------------------------------------------

    def prompt(self, status: bool = False) -> Fragments:
        """The prompt message: board picture, advice, the question (and a status line if asked)."""
        if not self.started:
            return [("class:advice", f"Starting count shown by the game (0-{self.shape.cells}): ")]
        advice = self.advice()
        out: Fragments = [("", "\n")]
        if self._ask("progress").possible > 0:  # no picture of boards when none fits the counts
            side = legend_lines() if self.shape.cols <= 12 else ()
            out += picture(self.shape, self._ask("marginals"), self.target(), side)
        if status:
            out += line(("class:note", plain(self.toolbar(keys=False)).strip()))
        if advice.phase == "stuck":
            return out + self._stuck(advice)
        out += self._advice(advice)
        cell = self.target()
        if self.oracle is not None:
            if cell is None:
                return out + [("class:advice", "Type the cell to click: ")]
            return out + [("", "Enter clicks "), ("class:cellname", self.shape.name(cell)),
                          ("", " (or type another cell): ")]
        if cell is None:
            return out + [("class:advice", "Cell you clicked and its count (e.g. C4 17): ")]
        if advice.phase == "finish" and self.pending is None:
            hint = f"expect {advice.expected}"
        else:
            hint = " ".join(map(str, self.accepted(cell)))
        return out + [("", "Count after "), ("class:cellname", self.shape.name(cell)),
                      ("class:note", f" [{hint}]"), ("", ": ")]

    def _stuck(self, advice) -> Fragments:
        """Why no click can be advised, and the fixes that would let the game go on."""
        fixes = self.guide.fixes
        if not fixes:
            return wrap(advice.message.split(), "", style="class:warn", gap=" ") + \
                line(("class:note", f"If the last count was a typo, undo ({UNDO_KEYS}) and type it "
                                     "again.")) + \
                [("class:warn", "Type undo, fix STEP COUNT, history or quit: ")]
        out = line(("class:warn", "These counts contradict each other; one typo would explain it:"))
        for f in fixes:
            if f.step == 0:
                what = f"the starting count was {f.suggested}, not {f.written}"
            else:
                step = self.guide.record.steps[f.step - 1]
                what = (f"step {f.step}, {self.shape.name(step.cell)}, showed {f.suggested}, "
                        f"not {f.written}")
            out += line(("class:advice", f"  fix {f.step} {f.suggested}"), ("class:note", f"   {what}"))
        return out + [("class:warn", "Type the fix that is right (see history), or undo: ")]

    def _advice(self, advice) -> Fragments:
        if self.pending is not None:
            instead = " instead." if advice.cell not in (None, self.pending) else "."
            return line(("", "You clicked "), ("class:cellname", self.shape.name(self.pending)),
                        ("", instead))
        if advice.phase != "finish":
            return line(("class:advice", advice.message))
        lead = advice.message.split(":")[0]  # "Board known", or why a guess is being finished
        left = len(advice.plan)
        out = line(("class:ok", f"{lead}: {left} click{'s' if left > 1 else ''} to go. "),
                    ("class:advice", "Click "), ("class:cellname", self.shape.name(advice.cell)),
                    ("class:advice", "; the count should become "),
                    ("class:count", str(advice.expected)), ("class:advice", "."))
        if left > 1:
            out += wrap([f"{self.shape.name(c)} ({n})" for c, n in advice.plan[1:]], "Then: ")
        return out

    def toolbar(self, keys: bool = True) -> Fragments:
        """The status bar: clicks so far, boards still possible, bits known, strategy."""
        if not self.started:
            head = f" {self.shape} board · {self.guide.strategy}"
        else:
            p = self._ask("progress")
            head = (f" {plural(p.clicks, 'click')} · {boards(p.possible)} left · "
                    f"{p.bits_known:.1f} of {self.shape.cells} bits · {p.strategy}")
        if not keys:
            return [("", head)]
        key = "class:bottom-toolbar.key"
        return [("", head + " · "), (key, UNDO_KEYS.split()[0]), ("", " undo · "),
                (key, "help"), ("", " ")]

    def words(self) -> list[str]:
        """Completion words: commands and every cell name."""
        return list(COMMANDS) + [self.shape.name(k) for k in range(self.shape.cells)]

    # --- checking a line ---------------------------------------------------------------

    def _learned(self, learned, expected: int | None) -> Fragments:
        """The log line of one step: what it showed and what that taught."""
        name = self.shape.name(learned.cell)
        rest = learned.message.split("; ", 1)[1] if "; " in learned.message else ""
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
            message = f"{boards(learned.possible_after)} left" + (f"; {rest}" if rest else "")
            style = "class:note"
        out = [("class:note", f"{learned.step:>4}. "), ("class:cellname", f"{name:<3}"),
               ("", " -> "), ("class:count", f"{learned.count:>2}"), (style, f"   {message}\n")]
        if len(learned.fixes) == 1:
            out += line(("class:warn", f"      {typo_found(learned.fixes[0])}"))
            if learned.fixes[0].step != learned.step:
                out += line(("class:note",
                             f"      (if {learned.count} was the typo, undo and type it again)"))
        return out

    def summary(self) -> Fragments:
        """The end of a solved game: clicks, probes, and for a simulated game the hidden board."""
        p = self._ask("progress")
        finish = p.clicks - p.probes
        out: Fragments = line(("class:ok", f"Solved: the count is 0 after {p.clicks} clicks "
                                           f"({p.probes} to find the board, {finish} to finish)."))
        if self.oracle is not None and self.hidden is not None:
            out += line(("", "The hidden board was:"))
            out += board_picture(self.shape, self.hidden)
            known = self.guide.known()
            if known is not None and known != self.hidden:
                out += line(("class:warn", "countlo's reconstruction differs from the hidden board!"))
        return out + self.leave_note()

    def leave_note(self) -> Fragments:
        """Where the transcript is, and how to carry on."""
        if self.where is None:
            return []
        out = line(("class:note", f"Transcript: {self.where}"))
        if not self.guide.done:
            out += line(("class:note", f"Carry on later with: countlo play --resume {self.where}"))
        return out

    def _do_help(self, entry: Entry) -> Fragments:
        return line(("", (SIM_HELP if self.oracle is not None else HELP).format(keys=UNDO_KEYS)))

    def _do_board(self, entry: Entry) -> Fragments:
        if not self.started:
            return line(("", "No count yet: every board is possible."))
        p = self._ask("progress")
        out = [("", "\n")] + picture(self.shape, self._ask("marginals"), self.target()) + legend()
        return out + line(("class:note", f"{boards(p.possible)} possible, "
                                          f"{p.bits_known:.1f} of {self.shape.cells} bits known"))

    def _do_history(self, entry: Entry) -> Fragments:
        if not self.started:
            return line(("", "No count yet."))
        record = self.guide.record
        out = line(("class:note", "   0. start -> "), ("class:count", str(record.start)))
        for i, s in enumerate(record.steps, 1):
            name = self.shape.name(s.cell)
            out += line(("class:note", f"{i:>4}. "), ("class:cellname", f"{name:<3}"),
                        ("", " -> "), ("class:count", str(s.count)))
        return out
