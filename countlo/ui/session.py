"""The guided session of `countlo play`: a Guide, a transcript and (for --sim) a simulated game.

`Session` is the whole conversation as text in and formatted fragments out, with no terminal,
so a test can drive it line by line: `check(line)` says why a line would be refused (the
prompt's validator), `handle(line)` applies it to the guide, the transcript and the simulated
game. What it shows lives in countlo.ui.screen; countlo.ui.terminal puts it behind prompt_toolkit
or plain lines.
"""

from __future__ import annotations

from typing import Callable, Protocol

from countlo.board import Shape
from countlo.ui.entry import Entry, EntryError, Verb, parse_entry
from countlo.errors import BadCountError, CountloError
from countlo.hidden.record import possible_after
from countlo.ui.picture import Fragments
from countlo.ui.screen import Screen, line, plural, typo_found

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


class Session(Screen):
    """One guided game: parse a typed line, check it, apply it to the guide and the transcript."""

    def __init__(self, guide, writer: Writer | None = None, oracle: Oracle | None = None,
                 where: str | None = None, label: str = ""):
        self.guide, self.writer, self.oracle, self.where = guide, writer, oracle, where
        self.label = label  # e.g. "simulated game, seed 1", shown in the greeting
        self.shape: Shape = guide.shape
        self.pending: int | None = None  # a cell the player clicked whose count is still to come
        self._seen: dict = {}  # answers of the guide for the current state (see _ask)
        self.over = guide.done  # a resumed game may be over already
        self.hidden: int | None = None  # the simulated game's hidden start (SimulatedOracle.board)
        if oracle is not None:
            self.hidden = getattr(oracle, "board", None)
            if guide.record is None:
                self._start(oracle.start())

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
        """Refuse a count the prompt does not accept, in one line that fits 80 columns."""
        ok = self.accepted(cell)
        if count in ok:
            return
        before = self.guide.record.count
        physical = possible_after(self.shape, cell, before)
        if force and count in physical:
            return
        name, listed = self.shape.name(cell), " ".join(map(str, ok))
        if count in physical:  # the click could show it, but no board left would: a typo before?
            raise BadCountError(f"{count} fits none of the boards left; possible: {listed}; "
                                f"sure? type {count}!", ok)
        raise BadCountError(f"{count} is impossible after {name} from {before} lit; "
                            f"possible: {listed}", ok)

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
            return line(("class:warn", f"! {e}"))
        act: Callable[[Entry], Fragments] = getattr(self, f"_do_{entry.verb.value}")
        try:
            return act(entry)
        except CountloError as e:
            return line(("class:warn", f"! {e}"))

    def _start(self, count: int) -> None:
        self._seen.clear()
        self.guide.start(count)
        self._sync()

    def _sync(self, comment: str | None = None) -> None:
        if self.writer is not None:
            sync(self.writer, self.guide.record, comment)

    def _do_count(self, entry: Entry) -> Fragments:
        self._start(entry.count)
        return line(("class:note", f"   start: {entry.count} lit"))

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
        if len(learned.fixes) == 1 and self.writer is not None:
            self.writer.note(typo_found(learned.fixes[0]))
        if self.guide.done:
            out += self._finish()
        return out

    def _finish(self) -> Fragments:
        self.over = True
        p = self._ask("progress")
        if self.writer is not None:
            self.writer.note(f"solved: {p.clicks} clicks, {p.probes} to find the board, "
                             f"{p.clicks - p.probes} to finish")
        return self.summary()

    def _do_undo(self, entry: Entry) -> Fragments:
        if self.pending is not None:
            name, self.pending = self.shape.name(self.pending), None
            return line(("class:note", f"   forgot the click on {name}"))
        before = self.guide.record
        self._seen.clear()
        self.guide.undo()
        after = self.guide.record
        if after == before:
            return line(("class:warn", "! nothing to undo"))
        self._sync()
        if len(after.steps) < len(before.steps):
            step = before.steps[-1]
            name = self.shape.name(step.cell)
            if self.oracle is not None:
                self.oracle.click(step.cell)  # the simulated game takes the click back too
                return line(("class:note", f"   undo: {name} -> {step.count} taken back"))
            # beside the real game the click stays made: only its count is taken back, and the
            # prompt asks for it again rather than for a second click on the same cell
            self.pending = step.cell
            return line(("class:note", f"   undo: the count {step.count} after {name} taken back; "
                                       f"type the count {name} shows (undo again if you did not "
                                       "click it)"))
        return line(("class:note", "   undo: the last correction taken back"))

    def _do_fix(self, entry: Entry) -> Fragments:
        self._seen.clear()
        self.guide.correct(entry.step, entry.count)
        self._sync()
        where = "starting count" if entry.step == 0 else f"step {entry.step}"
        return line(("class:note", f"   fixed: {where} is {entry.count}"))

    def _do_quit(self, entry: Entry) -> Fragments:
        return self.leave()

    def leave(self) -> Fragments:
        """End the session early (quit, Ctrl-C, Ctrl-D): say where the transcript is."""
        self.over = True
        clicks = len(self.guide.record.steps) if self.started else 0
        return line(("class:note", f"Left after {plural(clicks, 'click')}.")) + self.leave_note()
