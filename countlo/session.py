"""The guided session of `countlo play`: a Guide, a transcript and (for --sim) a simulated game.

`Session` is the whole conversation as text in and formatted fragments out, with no terminal,
so a test can drive it line by line. `run_terminal` puts it behind a prompt_toolkit prompt whose
message is the board picture (so the picture always sits right above the input line), with a
validator that refuses impossible counts at the prompt, completion, history, a status bar and
an undo key; `run_lines` is the same conversation over plain lines for pipes and NO_COLOR.
"""

from __future__ import annotations

from typing import Callable, Protocol

from countlo.board import Shape
from countlo.entry import COMMANDS, Entry, EntryError, Verb, parse_entry
from countlo.errors import BadCountError, CountloError
from countlo.observe import possible_after
from countlo.picture import Fragments, board_picture, legend, legend_lines, picture, plain

UNDO_KEYS = "F2 or Esc u"

HELP = """\
Type the count the game shows after each click, then press Enter.
  17          the count after the suggested click
  C4  or 4 3  you clicked another cell (column letter + row, or row and column); then its count
  C4 17       another cell and its count on one line
  17!         insist on a count countlo calls impossible (an earlier count was mistyped)
  undo        take back the last step ({keys} does the same)
  fix 3 17    step 3 really showed 17 (fix 0 N changes the starting count)
  board       print the board picture with its legend
  history     every step so far
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D leave too)
Tab completes commands and cell names; Up/Down recall earlier lines.
"""

SIM_HELP = """\
The simulated game answers for you: press Enter to make the suggested click.
  C4  or 4 3  click another cell instead
  undo        take back the last click ({keys} does the same)
  board, history, help, quit   as in a real session (Ctrl-C and Ctrl-D leave too)
"""


class Writer(Protocol):
    def start(self, count: int) -> None: ...
    def step(self, cell: int, count: int, comment: str | None = None) -> None: ...
    def undo(self) -> None: ...
    def fix(self, step: int, count: int) -> None: ...
    def note(self, text: str) -> None: ...


class Oracle(Protocol):
    shape: Shape
    board: int

    def start(self) -> int: ...
    def click(self, cell: int) -> int: ...


def amount(n: int) -> str:
    """A count of boards for people: 1,234 up to a million, then 2.5 million, 9.1 billion."""
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.1f} {word}"
    return f"{n:,}"


def boards(n: int) -> str:
    """'1 board', '24 boards', '9.1 billion boards'."""
    return "1 board" if n == 1 else f"{amount(n)} boards"


def wrap(words: list[str], lead: str, width: int = 78) -> Fragments:
    """`lead` then the words, wrapped under one another at `width` columns, as note lines."""
    lines, line = [], lead
    for w in words:
        if len(line) + len(w) + 1 > width and line.strip() != lead.strip():
            lines.append(line.rstrip())
            line = " " * len(lead)
        line += w + "  "
    lines.append(line.rstrip())
    return [("class:note", "\n".join(lines) + "\n")]


def sync(writer, record, comment: str | None = None) -> None:
    """Append to the transcript what turns its record into `record`: undos, fixes, new clicks.

    The guide may change more than one line's worth (an observation that corrects an earlier
    count, an undo of a correction); the transcript says it as undo / fix / click lines.
    """
    if record is None:
        return
    have = writer.record
    if have is None:
        writer.start(record.start)
        have = type(record)(record.shape, record.start)
    n = 0
    while n < min(len(have.steps), len(record.steps)) and have.steps[n].cell == record.steps[n].cell:
        n += 1
    for _ in range(len(have.steps) - n):
        writer.undo()
    for i, (old, new) in enumerate(zip(have.counts[:n + 1], record.counts)):
        if old != new:
            writer.fix(i, new)
    for i, s in enumerate(record.steps[n:], n + 1):
        writer.step(s.cell, s.count, comment if i == len(record.steps) else None)


def _line(*parts: tuple[str, str]) -> Fragments:
    return list(parts) + [("", "\n")]


class Session:
    """One guided game: parse a typed line, check it, apply it to the guide and the transcript."""

    def __init__(self, guide, writer: Writer | None = None, oracle: Oracle | None = None,
                 where: str | None = None, label: str = ""):
        self.guide, self.writer, self.oracle, self.where = guide, writer, oracle, where
        self.label = label  # e.g. "simulated game, seed 1", shown in the greeting
        self.shape: Shape = guide.shape
        self.pending: int | None = None  # a cell the player clicked whose count is still to come
        self._seen: dict = {}  # answers of the guide for the current state (see _ask)
        self.over = False
        self.hidden: int | None = None  # the simulated game's hidden start (SimulatedOracle.board)
        if oracle is not None:
            self.hidden = getattr(oracle, "board", None)
            if guide.record is None:
                self._start(oracle.start())

    def greeting(self) -> Fragments:
        """The lines printed once at the start: board, strategy, transcript, how to get help."""
        g = self.guide
        what = f"{self.shape} board, {g.strategy} strategy, {g.engine} engine"
        out = _line(("class:advice", "countlo play"), ("", f": {what}" + (f", {self.label}" if self.label else "")))
        if self.where is not None:
            out += _line(("class:note", f"Transcript: {self.where}"))
        if self.started:
            record = g.record
            if self.oracle is not None and not record.steps:
                out += _line(("", f"The simulated game starts with {record.start} lit."))
            elif record.steps:
                out += _line(("", f"Resumed after {len(record.steps)} clicks; the count is {record.count}."))
        keys = "press Enter to make each suggested click" if self.oracle is not None else \
            "type the count the game shows after each click"
        return out + _line(("class:note", f"{keys[0].upper()}{keys[1:]}; help lists the commands."))

    # --- what the prompt shows ---------------------------------------------------------
    def _ask(self, what: str, *args):
        """guide.what(*args), computed once per state of the game (the guide may take a while)."""
        key = (what, args)
        if key not in self._seen:
            self._seen[key] = getattr(self.guide, what)(*args)
        return self._seen[key]

    def advice(self):
        """The guide's advice for the game as it stands."""
        return self._ask("advice")

    @property
    def started(self) -> bool:
        return self.guide.record is not None

    def target(self) -> int | None:
        """The cell whose count the prompt asks for: the pending cell, else the advised one."""
        if self.pending is not None:
            return self.pending
        return self.advice().cell if self.started else None

    def accepted(self, cell: int) -> tuple[int, ...]:
        """Counts the prompt accepts after clicking `cell`: the still-possible ones while probing,
        any count a click can show once the board is known (a mismatch is then a typo to find)."""
        if self.advice().phase == "probe":
            return tuple(self._ask("possible_counts", cell))
        return possible_after(self.shape, cell, self.guide.record.count)

    def prompt(self, status: bool = False) -> Fragments:
        """The prompt message: board picture, advice, the question (and a status line if asked)."""
        if not self.started:
            return [("class:advice", f"Starting count shown by the game (0-{self.shape.cells}): ")]
        advice = self.advice()
        side = legend_lines() if self.shape.cols <= 12 else ()
        out: Fragments = [("", "\n")] + picture(self.shape, self._ask("marginals"), self.target(), side)
        if status:
            out += _line(("class:note", plain(self.toolbar()).strip()))
        out += self._advice(advice)
        cell = self.target()
        if advice.phase == "stuck":
            return out + [("class:warn", "Type undo, fix STEP COUNT, history or quit: ")]
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

    def _advice(self, advice) -> Fragments:
        if self.pending is not None:
            return _line(("", "You clicked "), ("class:cellname", self.shape.name(self.pending)),
                         ("", " instead."))
        if advice.phase != "finish":
            return _line(("class:advice", advice.message))
        lead = advice.message.split(":")[0]  # "Board known", or why a guess is being finished
        left = len(advice.plan)
        out = _line(("class:ok", f"{lead}: {left} click{'s' if left > 1 else ''} to go. "),
                    ("class:advice", "Click "), ("class:cellname", self.shape.name(advice.cell)),
                    ("class:advice", "; the count should become "),
                    ("class:count", str(advice.expected)), ("class:advice", "."))
        if left > 1:
            out += wrap([f"{self.shape.name(c)} ({n})" for c, n in advice.plan[1:]], "Then: ")
        return out

    def toolbar(self) -> Fragments:
        """The status bar: clicks so far, boards still possible, bits known, strategy."""
        key = "class:bottom-toolbar.key"
        if not self.started:
            head = f" {self.shape} board · {self.guide.strategy} · "
        else:
            p = self._ask("progress")
            head = (f" {p.clicks} clicks · {boards(p.possible)} left · "
                    f"{p.bits_known:.1f}/{self.shape.cells} bits · {p.strategy} · ")
        return [("", head), (key, UNDO_KEYS.split()[0]), ("", " undo · "), (key, "help"), ("", " ")]

    def words(self) -> list[str]:
        """Completion words: commands and every cell name."""
        return list(COMMANDS) + [self.shape.name(k) for k in range(self.shape.cells)]

    # --- checking a line ---------------------------------------------------------------
    def parse(self, text: str) -> Entry:
        """The Entry `text` means now; CountloError (one line) if it cannot be accepted."""
        entry = parse_entry(text, self.shape)
        if entry.verb in (Verb.HELP, Verb.QUIT, Verb.BOARD, Verb.HISTORY):
            return entry
        if not self.started:
            if entry.verb is not Verb.COUNT:
                raise EntryError(f"type the starting count the game shows, 0-{self.shape.cells}")
            if entry.count > self.shape.cells:
                raise BadCountError(f"a {self.shape} board has 0-{self.shape.cells} lit, not {entry.count}")
            return entry
        phase = self.advice().phase
        if entry.verb is Verb.FIX:
            if self.oracle is not None:
                raise EntryError("the simulated game's counts are right; nothing to fix")
            if entry.step > len(self.guide.record.steps):
                raise EntryError(f"there is no step {entry.step} yet (steps so far: "
                                 f"{len(self.guide.record.steps)})")
            return entry
        if entry.verb is Verb.UNDO:
            if self.pending is None and not self.guide.record.steps and not self.guide.corrections:
                raise EntryError("nothing to undo yet (fix 0 N changes the starting count)")
            return entry
        if phase in ("done", "stuck"):
            raise EntryError("no click fits the counts so far: undo, fix a count, or quit"
                             if phase == "stuck" else "the game is solved")
        if self.oracle is not None:
            return self._parse_sim(entry)
        if entry.verb is Verb.NEXT:
            what = self.target()
            raise EntryError("type the count the game shows" +
                             (f" after clicking {self.shape.name(what)}" if what is not None
                              else ", with the cell you clicked (e.g. C4 17)"))
        if entry.verb is Verb.COUNT:
            cell = self.target()
            if cell is None:
                raise EntryError("which cell did you click? type it with its count, e.g. C4 17")
            self._check_count(cell, entry.count, entry.force)
            return Entry(Verb.CLICK, cell=cell, count=entry.count, force=entry.force)
        if entry.verb is Verb.CLICK and entry.count is not None:
            self._check_count(entry.cell, entry.count, entry.force)
        return entry

    def _parse_sim(self, entry: Entry) -> Entry:
        if entry.verb is Verb.NEXT:
            cell = self.target()
            if cell is None:
                raise EntryError("type the cell to click, e.g. C4")
            return Entry(Verb.CLICK, cell=cell)
        if entry.verb is Verb.CLICK and entry.count is None:
            return entry
        raise EntryError("the simulated game shows the counts itself: press Enter or type a cell")

    def _check_count(self, cell: int, count: int, force: bool = False) -> None:
        ok = self.accepted(cell)
        if count in ok:
            return
        physical = possible_after(self.shape, cell, self.guide.record.count)
        if force and count in physical:
            return
        listed = ", ".join(map(str, ok))
        insist = f" (if the game really shows {count}, an earlier count was mistyped: " \
                 f"type {count}! to insist)" if count in physical else ""
        raise BadCountError(f"{count} is not possible after clicking {self.shape.name(cell)}; "
                            f"possible: {listed}{insist}", ok)

    def check(self, text: str) -> str | None:
        """None if `text` would be accepted now, else the one-line reason (for the validator)."""
        try:
            self.parse(text)
        except CountloError as e:
            return str(e)
        return None

    # --- acting on a line --------------------------------------------------------------
    def handle(self, text: str) -> Fragments:
        """Apply one typed line; returns what to print above the prompt."""
        try:
            entry = self.parse(text)
        except CountloError as e:
            return _line(("class:warn", f"! {e}"))
        act: Callable[[Entry], Fragments] = getattr(self, f"_do_{entry.verb.value}")
        try:
            return act(entry)
        except CountloError as e:
            return _line(("class:warn", f"! {e}"))

    def _start(self, count: int) -> None:
        self._seen.clear()
        self.guide.start(count)
        self._sync()

    def _sync(self, comment: str | None = None) -> None:
        if self.writer is not None:
            sync(self.writer, self.guide.record, comment)

    def _do_count(self, entry: Entry) -> Fragments:
        self._start(entry.count)
        return _line(("class:note", f"   start: {entry.count} lit"))

    def _do_click(self, entry: Entry) -> Fragments:
        advice = self.advice()
        if entry.count is None and self.oracle is None:
            self.pending = None if entry.cell == advice.cell else entry.cell
            return []
        count = entry.count if self.oracle is None else self.oracle.click(entry.cell)
        self.pending = None
        self._seen.clear()
        try:
            learned = self.guide.observe(entry.cell, count, force=entry.force)
        except CountloError:
            if self.oracle is not None:
                self.oracle.click(entry.cell)  # take the click back in the simulated game
            raise
        planned = advice.phase == "finish" and entry.cell == advice.cell
        surprise = planned and count != advice.expected
        self._sync(f"expected {advice.expected}" if surprise else None)
        out = self._learned(learned, advice.expected if planned else None)
        if self.guide.done:
            out += self._finished()
        return out

    def _learned(self, learned, expected: int | None) -> Fragments:
        name = self.shape.name(learned.cell)
        message = learned.message.removeprefix(f"{name} showed {learned.count}: ")
        if expected == learned.count and not learned.fixes:
            message = "as planned"
        elif learned.possible_before == learned.possible_after == 1:
            message = message.removeprefix("1 board -> 1 board").lstrip("; ")
        out = [("class:note", f"{learned.step:>4}. "), ("class:cellname", f"{name:<3}"),
               ("", " -> "), ("class:count", f"{learned.count:>2}"), ("class:note", f"   {message}\n")]
        if expected is not None and expected != learned.count:
            out += _line(("class:warn", f"      expected {expected}, not {learned.count}"))
        if len(learned.fixes) == 1:
            fix = learned.fixes[0]
            where = "the starting count" if fix.step == 0 else f"step {fix.step}"
            text = (f"Typo found: {where} must have been {fix.suggested}, not {fix.written}; "
                    "corrected and re-planned")
            out += _line(("class:warn", f"      {text}"))
            out += _line(("class:note", f"      (if {learned.count} was the typo, undo and type it again)"))
            if self.writer is not None:
                self.writer.note(text)
        return out

    def _finished(self) -> Fragments:
        self.over = True
        p = self._ask("progress")
        record = self.guide.record
        out: Fragments = _line(("class:ok", f"Solved: the count is 0 after {p.clicks} clicks "
                                  f"({p.probes} to find the board, {p.clicks - p.probes} to finish)."))
        if self.oracle is not None and self.hidden is not None:
            out += _line(("", "The hidden board was:"))
            out += board_picture(self.shape, self.hidden)
            known = self.guide.known()
            if known is not None and known != self.hidden:
                out += _line(("class:warn", "countlo's reconstruction differs from the hidden board!"))
        if self.writer is not None:
            self.writer.note(f"solved in {p.clicks} clicks ({p.probes} probes, {record.count} lit)")
        return out + self.leave_note()

    def leave_note(self) -> Fragments:
        """Where the transcript is, and how to carry on."""
        if self.where is None:
            return []
        out = _line(("class:note", f"Transcript: {self.where}"))
        if not self.guide.done:
            out += _line(("class:note", f"Carry on later with: countlo play --resume {self.where}"))
        return out

    def _do_undo(self, entry: Entry) -> Fragments:
        if self.pending is not None:
            name, self.pending = self.shape.name(self.pending), None
            return _line(("class:note", f"   forgot the click on {name}"))
        before = self.guide.record
        self._seen.clear()
        self.guide.undo()
        after = self.guide.record
        if after == before:
            return _line(("class:warn", "! nothing to undo"))
        self._sync()
        if len(after.steps) < len(before.steps):
            step = before.steps[-1]
            if self.oracle is not None:
                self.oracle.click(step.cell)  # the simulated game takes the click back too
            return _line(("class:note", f"   undo: {self.shape.name(step.cell)} -> {step.count} taken back"))
        return _line(("class:note", "   undo: the last correction taken back"))

    def _do_fix(self, entry: Entry) -> Fragments:
        self._seen.clear()
        self.guide.correct(entry.step, entry.count)
        self._sync()
        where = "starting count" if entry.step == 0 else f"step {entry.step}"
        return _line(("class:note", f"   fixed: {where} is {entry.count}"))

    def _do_help(self, entry: Entry) -> Fragments:
        return _line(("", (SIM_HELP if self.oracle is not None else HELP).format(keys=UNDO_KEYS)))

    def _do_board(self, entry: Entry) -> Fragments:
        if not self.started:
            return _line(("", "No count yet: every board is possible."))
        p = self._ask("progress")
        out = [("", "\n")] + picture(self.shape, self._ask("marginals"), self.target()) + legend()
        return out + _line(("class:note", f"{boards(p.possible)} possible, "
                                          f"{p.bits_known:.1f} of {self.shape.cells} bits known"))

    def _do_history(self, entry: Entry) -> Fragments:
        if not self.started:
            return _line(("", "No count yet."))
        record = self.guide.record
        out = _line(("class:note", "   0. start -> "), ("class:count", str(record.start)))
        for i, s in enumerate(record.steps, 1):
            out += _line(("class:note", f"{i:>4}. "), ("class:cellname", f"{self.shape.name(s.cell):<3}"),
                         ("", " -> "), ("class:count", str(s.count)))
        return out

    def _do_quit(self, entry: Entry) -> Fragments:
        return self.leave()

    def leave(self) -> Fragments:
        """End the session early (quit, Ctrl-C, Ctrl-D): say where the transcript is."""
        self.over = True
        clicks = len(self.guide.record.steps) if self.started else 0
        return _line(("class:note", f"Left after {clicks} clicks.")) + self.leave_note()
