"""The guided session of `countlo play`: a Guide, a transcript and (for --sim) a simulated game.

`Session` is the whole conversation as text in and formatted fragments out, with no terminal,
so a test can drive it line by line: `check(line)` says why a line would be refused (the
prompt's validator), `handle(line)` applies it to the guide, the transcript and the simulated
game. What it shows lives in countlo.ui.screen (sentences in countlo.ui.wording); whether the
game is real or simulated is a policy object from countlo.ui.modes; countlo.ui.terminal puts it
behind prompt_toolkit or plain lines.
"""

from __future__ import annotations

from typing import cast

from countlo.countboard import CountBoard
from countlo.errors import BadCountError, CountloError, EngineLimitError
from countlo.formats.transcript import Writer
from countlo.hidden.diagnose import Fix
from countlo.hidden.explain import Missed, Mistake, OtherCell, StartAside
from countlo.hidden.record import Record, possible_after
from countlo.i18n import _, speaking
from countlo.play.advice import Advice, Doubt, Finish, Unclearable
from countlo.play.guide import Guide, Progress
from countlo.play.oracle import SimulatedOracle
from countlo.play.outlook import Outlook
from countlo.ui.entry import (
    Answer,
    Click,
    Command,
    Count,
    Entry,
    EntryError,
    FixCell,
    FixCount,
    Verb,
    parse_entry,
)
from countlo.ui.modes import Mode, RealGame, SimulatedGame
from countlo.ui.picture import Fragments
from countlo.ui.screen import Screen, line
from countlo.ui.wording import advice_text, clicks, corrected_text, where


def sync(writer: Writer, record: Record | None, comment: str | None = None) -> None:
    """Append to the transcript what turns its record into `record`: undos, fixes, new clicks.

    The guide may change more than one line's worth (an observation that corrects an earlier
    count, an undo of a correction); the transcript says it as undo / fix / click lines.
    """
    if record is None:
        return
    have = writer.record
    if have is None:
        writer.start(record.start)
        have = Record(record.shape, record.start)
    n = 0
    while n < min(len(have.steps), len(record.steps)) and have.steps[n].cell == record.steps[n].cell:
        n += 1
    for _step in range(len(have.steps) - n):
        writer.undo()
    for i, (old, new) in enumerate(zip(have.counts[:n + 1], record.counts)):
        if old != new:
            writer.fix(i, new)
    for i, s in enumerate(record.steps[n:], n + 1):
        writer.step(s.cell, s.count, comment if i == len(record.steps) else None)


class Session:
    """One guided game: parse a typed line, check it, apply it to the guide and the transcript.

    `oracle`: play against this simulated board instead of the real game.
    """

    def __init__(self, guide: Guide, writer: Writer | None = None,
                 oracle: SimulatedOracle | None = None, where: str | None = None, label: str = ""):
        self.guide, self.writer, self.where = guide, writer, where
        self.mode: Mode = RealGame() if oracle is None else SimulatedGame(oracle)
        self.label = label  # e.g. "simulated game, seed 1", shown in the greeting
        self.width = 80  # columns to lay the screen out for; a terminal front end sets its own
        self.shape: CountBoard = guide.shape
        self.pending: int | None = None  # a cell the player clicked whose count is still to come
        self.refused: tuple[int, int] | None = None  # the last count refused, for a bare "!"
        self._seen: dict[tuple[str, tuple[int, ...]], object] = {}  # guide answers for this state
        self.over = guide.done  # a resumed game may be over already
        self.unclearable = False  # a simulated game ended on lights no click can clear (exit 1)
        self.screen = Screen(self)
        if isinstance(self.mode, SimulatedGame) and guide.record is None:
            self._start(self.mode.start())
            self.over = guide.done  # a start already at the goal (likely on a board of a few lights)

    def _ask(self, what: str, *args: int) -> object:
        """guide.what(*args), computed once per state of the game (the guide may take a while)."""
        key = (what, args)
        if key not in self._seen:
            self._seen[key] = getattr(self.guide, what)(*args)
        return self._seen[key]

    def advice(self) -> Advice:
        """The guide's advice for the game as it stands."""
        return cast(Advice, self._ask("advice"))

    def progress(self) -> Progress:
        return cast(Progress, self._ask("progress"))

    def marginals(self) -> list[float]:
        return cast(list[float], self._ask("marginals"))

    def outlook(self) -> Outlook | None:
        return cast("Outlook | None", self._ask("outlook"))

    @property
    def hidden(self) -> int | None:
        """The simulated game's hidden start (None beside a real game)."""
        return self.mode.hidden

    def _record(self) -> Record:
        record = self.guide.record
        if record is None:
            raise EntryError(_("no starting count yet"))
        return record

    # --- what it shows (countlo.ui.screen) ----------------------------------------------
    def greeting(self) -> Fragments:
        return self.screen.greeting()

    def prompt(self, status: bool = False) -> Fragments:
        return self.screen.prompt(status)

    def toolbar(self, keys: bool = True) -> Fragments:
        return self.screen.toolbar(keys)

    def words(self) -> list[str]:
        return self.screen.words()

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
            return cast(tuple[int, ...], self._ask("possible_counts", cell))
        return possible_after(self.shape, cell, self._record().count)

    def parse(self, text: str) -> Entry:
        """The Entry `text` means now; CountloError (one line) if it cannot be accepted."""
        entry = parse_entry(text, self.shape)
        if isinstance(entry, Command) and entry.verb in (Verb.HELP, Verb.QUIT, Verb.BOARD, Verb.HISTORY):
            return entry
        if not self.started:
            if isinstance(entry, Command) and entry.verb is Verb.UNDO and self.guide.restarted:
                return entry
            if not isinstance(entry, Count):
                raise EntryError(_("type the starting count the game shows, 0-{cells}").format(
                    cells=self.shape.cells))
            if entry.count > self.shape.cells:
                raise BadCountError(_("a {shape} board has 0-{cells} lit, not {count}").format(
                    shape=self.shape, cells=self.shape.cells, count=entry.count))
            return entry
        phase = self.advice().phase
        steps = len(self._record().steps)
        if isinstance(entry, Command) and entry.verb is Verb.UNDO:
            if self.pending is None and not steps and not self.guide.corrections and self.guide.doubt is None:
                raise EntryError(_("nothing to undo yet") if self.mode.simulated else
                                 _("nothing to undo yet (fix 0 N changes the starting count)"))
            return entry
        if isinstance(entry, Command) and entry.verb is Verb.RESTART:
            if self.mode.simulated:
                raise EntryError(_("the simulated game's counts are right; nothing to restart"))
            return entry
        doubt = self.guide.doubt
        if doubt is not None:
            return self._parse_answer(entry, doubt)
        if isinstance(entry, Command) and entry.verb is Verb.INSIST:
            if self.refused is None or self.mode.simulated:
                raise EntryError(_("nothing to insist on: a bare ! takes the count just refused"))
            entry = Click(*self.refused, force=True)
        if isinstance(entry, FixCount | FixCell):
            if self.mode.simulated:
                raise EntryError(_("the simulated game's counts are right; nothing to fix"))
            if entry.step > steps or (isinstance(entry, FixCell) and entry.step < 1):
                raise EntryError(_("there is no step {step} yet (steps so far: {steps})").format(
                    step=entry.step, steps=steps))
            return entry
        if phase in ("done", "stuck"):
            if isinstance(self.advice(), Unclearable):  # the counts fit; no click can clear them
                raise EntryError(_("these lights cannot be cleared whatever is clicked: undo, fix a count, "
                                   "or quit"))
            raise EntryError(_("no click fits the counts so far: undo, fix a count, or quit")
                             if phase == "stuck" else _("the game is solved"))
        if self.mode.simulated:
            return self._parse_sim(entry)
        if isinstance(entry, Command):  # NEXT: an empty line beside the real game
            what = self.target()
            raise EntryError(
                _("type the count the game shows after clicking {cell}").format(
                    cell=self.shape.name(what)) if what is not None else
                _("type the count the game shows, with the cell you clicked (e.g. C4 17)"))
        if isinstance(entry, Count):
            cell = self.target()
            if cell is None:
                raise EntryError(_("which cell did you click? type it with its count, e.g. C4 17"))
            self._check_count(cell, entry.count, entry.force)
            return Click(cell, entry.count, entry.force)
        if not isinstance(entry, Click):  # answers and cell fixes were taken above
            raise EntryError(_("first say which mistake it was (a line above), or undo"))
        if entry.count is not None:
            self._check_count(entry.cell, entry.count, entry.force)
        return entry

    def _parse_answer(self, entry: Entry, doubt: Doubt) -> Entry:
        """An answer to the question a count that did not fit raised: Enter (the likeliest
        mistake, or the click that tells them apart), the count the game shows, the cell really
        clicked, a fix line, or a click and its count (made to tell the suspects apart)."""
        record, newest = self._record(), doubt.step
        cells = [s.cell for s in record.steps] + [h.cell for h in doubt.held]
        counts = record.counts + [h.count for h in doubt.held]

        def pick(mistake: Mistake) -> Answer:
            if not self.guide.fits(mistake):
                raise EntryError(_("that does not make the counts fit: answer with a line above, or undo"))
            return Answer(mistake)

        def other(about_click: bool) -> Answer:
            """The likeliest suspect once the player says the click (or the count) was right."""
            for s in doubt.suspects:
                m = s.mistake
                on_click = isinstance(m, OtherCell | Missed)
                if m.step != newest or on_click != about_click:
                    return Answer(m)
            raise EntryError(_("then no single mistake explains it: type restart, or undo"))

        if isinstance(entry, Count) and self.pending is not None:  # the telling click's count
            entry = Click(self.pending, entry.count)
        if isinstance(entry, Command):
            if entry.verb is Verb.NEXT:
                if doubt.telling is not None and self.pending is None:
                    return entry  # Enter: make the click that tells the suspects apart
                default = self.guide.default_answer()
                if default is None:
                    raise EntryError(_("no single mistake explains it: type restart (begin again from the "
                                       "count shown), or undo"))
                return Answer(default)
            raise EntryError(_("first say which mistake it was (a line above), or undo"))
        if isinstance(entry, Count):
            if entry.count == doubt.count:  # the count is right: the click, or an earlier step
                return other(about_click=False)
            return pick(Fix(newest, doubt.count, entry.count))
        if isinstance(entry, Click):
            if entry.count is not None:  # a new click, made to tell the suspects apart
                if entry.count not in possible_after(self.shape, entry.cell, doubt.count):
                    raise BadCountError(_("{count} is impossible after {cell} from {before} lit").format(
                        count=entry.count, cell=self.shape.name(entry.cell), before=doubt.count))
                return entry
            if entry.cell == doubt.clicked:  # the click is right: the count, or an earlier step
                return other(about_click=True)
            return pick(OtherCell(newest, doubt.clicked, entry.cell))
        if isinstance(entry, FixCount):
            if entry.step > newest:
                raise EntryError(_("there is no step {step} yet (steps so far: {steps})").format(
                    step=entry.step, steps=newest))
            return pick(Fix(entry.step, counts[entry.step], entry.count))
        if isinstance(entry, FixCell):
            if entry.step == 0 and entry.cell is None:  # the starting count set aside
                aside = next((s.mistake for s in doubt.suspects if isinstance(s.mistake, StartAside)), None)
                if aside is None:
                    raise EntryError(_("that does not make the counts fit: answer with a line above, or undo"))
                return Answer(aside)
            if not 1 <= entry.step <= newest:
                raise EntryError(_("there is no step {step} yet (steps so far: {steps})").format(
                    step=entry.step, steps=newest))
            at = cells[entry.step - 1]
            return pick(Missed(entry.step, at) if entry.cell is None else OtherCell(entry.step, at, entry.cell))
        return entry

    def _parse_sim(self, entry: Entry) -> Entry:
        if isinstance(entry, Command) and entry.verb is Verb.NEXT:
            cell = self.target()
            if cell is None:
                raise EntryError(_("type the cell to click, e.g. C4"))
            return Click(cell)
        if isinstance(entry, Click) and entry.count is None:
            return entry
        raise EntryError(_("the simulated game shows the counts itself: press Enter or type a cell"))

    def _check_count(self, cell: int, count: int, force: bool = False) -> None:
        """Refuse a count the prompt does not accept, in one line. Accepted besides: a count the
        player insists on ("17!", or a bare "!" after a refusal), and the count before the click
        (the click may not have registered: the guide asks)."""
        ok = self.accepted(cell)
        before = self._record().count
        if count in ok or force or count == before:
            return
        physical = possible_after(self.shape, cell, before)
        name, listed = self.shape.name(cell), " ".join(map(str, ok))
        if count > self.shape.cells:  # no game shows it: nothing to insist on
            raise BadCountError(_("{count} is impossible after {cell} from {before} lit; "
                                  "possible: {listed}").format(count=count, cell=name, before=before,
                                                               listed=listed), ok)
        self.refused = (cell, count)
        if count in physical:  # the click could show it, but no board left would: a mistake before?
            raise BadCountError(_("{count} fits none of the boards left; possible: {listed}; "
                                  "if the game shows {count}, type !").format(count=count, listed=listed), ok)
        raise BadCountError(_("{count} is impossible after {cell} from {before} lit; "
                              "possible: {listed}; if the game shows it, type !").format(
            count=count, cell=name, before=before, listed=listed), ok)

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
        try:
            return self._act(entry)
        except CountloError as e:
            return line(("class:warn", f"! {e}"))

    def _act(self, entry: Entry) -> Fragments:
        if isinstance(entry, Count):
            self._start(entry.count)
            try:
                self._warm()
            except EngineLimitError as e:
                return self._cannot_follow(self._record(), e)
            return line(("class:note", "   " + _("start: {count} lit").format(count=entry.count)))
        if isinstance(entry, Click):
            return self._click(entry)
        if isinstance(entry, FixCount):
            return self._fix(entry)
        if isinstance(entry, FixCell):
            return self._amend(entry)
        if isinstance(entry, Answer):
            return self._answer(entry)
        if entry.verb is Verb.UNDO:
            return self._undo()
        if entry.verb is Verb.RESTART:
            return self._restart()
        doubt = self.guide.doubt
        if entry.verb is Verb.NEXT and doubt is not None and doubt.telling is not None:
            self.pending = doubt.telling.cell
            return []
        if entry.verb is Verb.HELP:
            return self.screen.help()
        if entry.verb is Verb.BOARD:
            return self.screen.board()
        if entry.verb is Verb.HISTORY:
            return self.screen.history()
        if entry.verb is Verb.QUIT:
            return self.leave()
        return []

    def _start(self, count: int) -> None:
        self._seen.clear()
        self.guide.start(count)
        self._sync()

    def _sync(self, comment: str | None = None) -> None:
        if self.writer is not None:
            sync(self.writer, self.guide.record, comment)

    def _click(self, entry: Click) -> Fragments:
        advice = self.advice()
        cell = entry.cell
        if entry.count is None and not self.mode.simulated:
            self.pending = None if cell == advice.cell else cell
            return []
        count = self.mode.count(cell, entry.count)
        self.pending, self.refused = None, None
        self._seen.clear()
        before = self.guide.record
        sifting = self.guide.doubt
        held = [s.cell for s in self._record().steps] + [h.cell for h in sifting.held] if sifting else []
        try:
            if sifting:
                learned = self.guide.sift(cell, count)
            else:
                learned = self.guide.observe(cell, count, force=entry.force)
            self._warm()
        except EngineLimitError as e:
            assert before is not None  # a click comes after the start
            return self._cannot_follow(before.then(cell, count), e)
        except CountloError:
            if self.mode.simulated:
                self.mode.take_back(cell)  # the refused click is taken back on the simulated board
            raise
        planned = isinstance(advice, Finish) and cell == advice.cell
        expected = advice.expected if planned else None
        comment = f"expected {expected}" if planned and count != expected else None
        if self.guide.doubt is not None:
            self._write_typed(cell, count, comment)
        else:
            self._sync(comment)
        out = self.screen.learned(learned, expected)
        if sifting is not None and self.guide.doubt is None and self.guide.corrections:
            told = corrected_text(self.shape, self.guide.corrections[-1], sifting, held)
            out += line(("class:note", "   " + _("{cell} showed {count}: {told}").format(
                cell=self.shape.name(cell), count=count, told=told)))
            if self.writer is not None:
                with speaking("en"):
                    self.writer.note(corrected_text(self.shape, self.guide.corrections[-1], sifting, held))
        if self.guide.done:
            out += self._finish()
        elif self.mode.simulated and isinstance(self.advice(), Unclearable):
            out += self._unclearable()
        return out

    def _unclearable(self) -> Fragments:
        """A simulated game whose lights no click can clear ends here: its counts are right, so
        there is no typo to undo (beside the real game the player may still find one)."""
        self.over = self.unclearable = True
        if self.writer is not None:
            self.writer.note("the lights cannot be cleared: the simulated game ends here")
        out = line(("class:warn", advice_text(self.shape, self.advice())))
        out += line(("class:note", _("The simulated game ends here: no clicks can clear these lights.")))
        if self.where is not None:  # nothing to carry on: no resume hint
            out += line(("class:note", _("Transcript: {path}").format(path=self.where)))
        return out

    def _write_typed(self, cell: int, count: int, comment: str | None) -> None:
        """Write a count that waits aside exactly as typed: a click line, or a note when no
        click on `cell` can show it (the transcript's counts are all possible ones)."""
        if self.writer is None:
            return
        try:
            self.writer.step(cell, count, comment)
        except BadCountError:
            self.writer.note(f"typed {self.shape.name(cell)} {count}: no click on {self.shape.name(cell)} "
                             f"can show it after {self._record().count}")

    def _answer(self, entry: Answer) -> Fragments:
        """Apply the player's answer to a question: the mistake is corrected in the record and the
        transcript (as undo and fix lines, with a note saying why)."""
        doubt = self.guide.doubt
        assert doubt is not None  # parse returns an Answer only while a question is pending
        cells = [s.cell for s in self._record().steps] + [h.cell for h in doubt.held]
        self._seen.clear()
        self.guide.answer(entry.mistake)
        self._sync()
        said = corrected_text(self.shape, entry.mistake, doubt, cells)
        if self.writer is not None:
            with speaking("en"):  # a transcript reads the same whatever language was spoken
                self.writer.note(corrected_text(self.shape, entry.mistake, doubt, cells))
        out = line(("class:note", "   " + said))
        if self.guide.done:
            out += self._finish()
        return out

    def _restart(self) -> Fragments:
        """Set the clicks so far aside and begin again from the count the game shows now."""
        self._seen.clear()
        self.pending = None
        self.guide.restart()
        if self.writer is not None:
            self.writer.note("restart: the clicks so far are set aside; the next start is the count shown then")
        return line(("class:note", "   " + _("Restart: the clicks so far are set aside; the lights now are "
                                            "a new hidden board.")))

    def _amend(self, entry: FixCell) -> Fragments:
        record = self._record()
        at = record.steps[entry.step - 1].cell
        mistake = Missed(entry.step, at) if entry.cell is None else OtherCell(entry.step, at, entry.cell)
        self._seen.clear()
        self.guide.amend(mistake)
        self._sync()
        if entry.cell is None:
            said = _("fixed: step {step}'s click did not register").format(step=entry.step)
        else:
            said = _("fixed: step {step} was a click on {cell}").format(
                step=entry.step, cell=self.shape.name(entry.cell))
        return line(("class:note", "   " + said))

    def _finish(self) -> Fragments:
        self.over = True
        p = self.progress()
        if self.writer is not None:
            self.writer.note(f"solved: {p.clicks} clicks, {p.probes} to find the board, "
                             f"{p.clicks - p.probes} to finish")
        return self.screen.summary(self.hidden)

    def _undo(self) -> Fragments:
        if self.pending is not None:
            name, self.pending = self.shape.name(self.pending), None
            return line(("class:note", "   " + _("forgot the click on {cell}").format(cell=name)))
        if not self.started:  # a restart taken back
            self._seen.clear()
            self.guide.undo()
            return line(("class:note", "   " + _("undo: the restart taken back")))
        before, doubt = self._record(), self.guide.doubt
        self._seen.clear()
        self.guide.undo()
        after = self._record()
        if doubt is not None:
            self._sync()
            name = self.shape.name(doubt.clicked)
            self.mode.take_back(doubt.clicked)
            if self.mode.simulated:
                return line(("class:note", "   " + _("undo: {cell} -> {count} taken back").format(
                    cell=name, count=doubt.count)))
            self.pending = doubt.clicked
            return line(("class:note", "   " + _(
                "undo: the count {count} after {cell} taken back; type the count {cell} shows (undo "
                "again if you did not click it)").format(count=doubt.count, cell=name)))
        if after == before:
            return line(("class:warn", "! " + _("nothing to undo")))
        self._sync()
        if len(after.steps) < len(before.steps):
            step = before.steps[-1]
            name = self.shape.name(step.cell)
            self.mode.take_back(step.cell)
            if self.mode.simulated:
                return line(("class:note", "   " + _("undo: {cell} -> {count} taken back").format(
                    cell=name, count=step.count)))
            # beside the real game the click stays made: only its count is taken back, and the
            # prompt asks for it again rather than for a second click on the same cell
            self.pending = step.cell
            return line(("class:note", "   " + _(
                "undo: the count {count} after {cell} taken back; type the count {cell} shows (undo "
                "again if you did not click it)").format(count=step.count, cell=name)))
        return line(("class:note", "   " + _("undo: the last correction taken back")))

    def _fix(self, entry: FixCount) -> Fragments:
        self._seen.clear()
        self.guide.correct(entry.step, entry.count)
        self._sync()
        return line(("class:note", "   " + _("fixed: {what} is {count}").format(
            what=where(entry.step), count=entry.count)))

    def _warm(self) -> None:
        """Ask now what the screen shows next, so that an engine limit surfaces while a line is
        acted on (and caught there) rather than in a redraw."""
        if self.started:
            self.progress()
            self.marginals()
            if self.advice().phase == "probe":  # the screen shows the outlook only while probing
                self.outlook()

    def _cannot_follow(self, kept: Record, e: EngineLimitError) -> Fragments:
        """The exact engine cannot take this count (its tables would pass their memory limit):
        the count is a real observation, so it goes to the transcript all the same, and the
        session ends there rather than refusing it."""
        self.over = True
        if self.writer is not None:
            sync(self.writer, kept)
            self.writer.note("countlo stopped here: the exact engine's tables would pass their memory limit")
        out = line(("class:warn", f"! {e}"))
        out += line(("class:note", _("The count is saved; countlo cannot follow this game any further.")))
        if self.where is not None:
            out += line(("class:note", _("Transcript: {path}").format(path=self.where)))
        return out

    def keeps_transcript(self) -> bool:
        """Whether this session's transcript file stays when it ends (countlo.cli.play removes
        one with nothing to resume; without a writer nothing is removed)."""
        return self.writer is None or self.writer.worth_keeping

    def leave(self) -> Fragments:
        """End the session early (quit, Ctrl-C, Ctrl-D): say where the transcript is."""
        self.over = True
        record = self.guide.record
        n = len(record.steps) if record is not None else 0
        said = _("Left after {clicks}.").format(clicks=clicks(n))
        return line(("class:note", said)) + self.screen.leave_note()
