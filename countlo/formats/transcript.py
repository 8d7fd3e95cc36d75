"""The countlo transcript: a forgiving reader and a canonical, crash-safe appending writer.

A transcript is plain UTF-8 text. Its header is the first paragraph of ``# key: value``
lines (``# countlo transcript 1``, ``# size: 6x6``, date, strategy, seed, engine, and any
other keys, kept as they are). Then one event a line: ``start COUNT``, a click ``CELL COUNT``
(A1 name or 1-based "row col", then the count shown after it), ``undo`` (takes the last
click back out of the record), ``fix STEP COUNT`` (step STEP's count was really COUNT;
step 0 is the starting count), or a ``# note``. Anything after ``#`` on a line is a comment.
See docs/transcripts.md.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import ClassVar, NamedTuple, TextIO

from countlo.board import Shape
from countlo.countboard import CountBoard, PressBoard, count_board
from countlo.errors import BadCountError, CountloError, TranscriptError, TranscriptFileError
from countlo.formats.text import read_text
from countlo.hidden.record import Record, Step, check_start, check_step
from countlo.i18n import N_, _, reason
from countlo.pressmap import PressMap, holed, merlin
from countlo.rules import Rule, Rules
from countlo.tokens import shown

VERSION = 1
MAGIC = "countlo transcript"
MAX_COUNT_DIGITS = 9

_MAGIC_LINE = re.compile(r"^#\s*countlo\s+transcript\b\s*(.*?)\s*$", re.IGNORECASE)
_FIELD = re.compile(r"^#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_NUMBER = re.compile(r"^[0-9]+$")
_KNOWN = ("size", "date", "strategy", "seed", "engine")
_RULES = ("topology", "rule", "target")  # absent: the classic game (version-1 transcripts)
_BOARD = ("board", "lights", "buttons", "presses")  # a press board (countlo.countboard.PressBoard)

Problems = list[tuple[int, str]]  # (line number, what is wrong there)


class ImpossibleCountsError(TranscriptError):
    """A transcript that parses but whose counts no board can show (a typo); keeps the raw tape."""

    exit_code = 1

    def __init__(self, problems: list[tuple[int, str]], source: str, tape: Tape):
        super().__init__(problems, source)
        self.tape = tape


class Kind(str, Enum):
    START = "start"
    STEP = "step"
    UNDO = "undo"
    FIX = "fix"
    NOTE = "note"


@dataclass(frozen=True)
class StartEvent:
    """'start N': the starting count (`text`: the comment after it; None: the count did not
    parse, and that problem is reported)."""

    count: int | None
    text: str | None = None
    line: int = field(default=0, compare=False)
    kind: ClassVar[Kind] = Kind.START


@dataclass(frozen=True)
class StepEvent:
    """'C4 17': a click and the count it showed (None where the line did not parse: it still
    counts as a click, so later undo and fix lines keep their meaning)."""

    cell: int | None
    count: int | None
    text: str | None = None
    line: int = field(default=0, compare=False)
    kind: ClassVar[Kind] = Kind.STEP


@dataclass(frozen=True)
class UndoEvent:
    """'undo': the last click is taken back."""

    text: str | None = None
    line: int = field(default=0, compare=False)
    kind: ClassVar[Kind] = Kind.UNDO


@dataclass(frozen=True)
class FixEvent:
    """'fix STEP N': step STEP (0: the start) really showed N."""

    step: int
    count: int
    text: str | None = None
    line: int = field(default=0, compare=False)
    kind: ClassVar[Kind] = Kind.FIX


@dataclass(frozen=True)
class NoteEvent:
    """'# text': a comment line kept in the body."""

    text: str | None = None
    line: int = field(default=0, compare=False)
    kind: ClassVar[Kind] = Kind.NOTE


Event = StartEvent | StepEvent | UndoEvent | FixEvent | NoteEvent


@dataclass(frozen=True)
class Header:
    """The header: board shape, format version, and the optional keys (unknown ones in `extra`)."""

    shape: CountBoard
    version: int = VERSION
    date: str | None = None
    strategy: str | None = None
    seed: int | None = None
    engine: str | None = None
    extra: tuple[tuple[str, str], ...] = ()

    @classmethod
    def new(cls, shape: CountBoard, strategy: str | None = None, seed: int | None = None,
            engine: str | None = None, **extra: str) -> Header:
        """A header dated now (UTC, to the second)."""
        date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        return cls(shape, VERSION, date, strategy, seed, engine, tuple(extra.items()))

    def lines(self) -> list[str]:
        """The header in canonical form, one line each."""
        out = [f"# {MAGIC} {self.version}"]
        if isinstance(self.shape, PressBoard):
            out += board_lines(self.shape)
        elif isinstance(self.shape, Shape):
            out.append(f"# size: {self.shape}")
            rules = self.shape.rules
            if rules.topology != "plane":
                out.append(f"# topology: {rules.topology}")
            if rules.rule.name != "plus":
                out.append(f"# rule: {rules.rule.spec()}")
            if rules.target != "dark":
                out.append(f"# target: {rules.target}")
        for key in ("date", "strategy", "seed", "engine"):
            value = getattr(self, key)
            if value is not None:
                out.append(f"# {key}: {value}")
        out += [f"# {k}: {_one_line(v)}" for k, v in self.extra]
        return out


def board_lines(board: PressBoard) -> list[str]:
    """The header lines that rebuild a press board (docs/transcripts.md): Merlin's square by its
    name, a grid with holes by its size, rules and holes, a graph or a table by its lights and
    what each button changes (the file it came from named, not needed)."""
    out: list[str] = []
    grid = board.grid
    if grid is not None:
        out.append(f"# size: {grid}")
        if board.kind == "holes":
            rules = grid.rules
            if rules.topology != "plane":
                out.append(f"# topology: {rules.topology}")
            if rules.rule.name != "plus":
                out.append(f"# rule: {rules.rule.spec()}")
            out.append("# board: holes " + " ".join(grid.name(h) for h in board.holes))
        else:
            out.append("# board: merlin")
    else:
        out.append(f"# board: {board.kind} {board.source}".rstrip())
        out.append("# lights: " + " ".join(board.light(i) for i in range(board.cells)))
        if board.buttons != tuple(board.light(i) for i in range(board.cells)):
            out.append("# buttons: " + " ".join(board.buttons))
        out.append("# presses: " + ", ".join(
            f"{board.name(j)}=" + " ".join(board.light(i) for i in board.neighbours(j)) for j in range(board.cells)))
    if board.target != "dark":
        out.append(f"# target: {board.target}")
    return out


def _press_board(fields: _Fields, shape: Shape | None, problems: Problems) -> CountBoard | None:
    """The press board the header's board, lights, buttons and presses lines describe (None with
    the problem said at its line when they do not make one)."""
    kind, line = fields.board["board"]
    word, _sep, source = kind.partition(" ")
    target = fields.rules.get("target", ("dark", 0))[0]
    try:
        if word == "merlin":
            return count_board(merlin(), target)
        if word == "holes":
            if shape is None:
                return None
            return count_board(holed(shape, sorted({shape.parse_cell(c) for c in source.split()})), target)
        if word in ("graph", "buttons"):
            lights = tuple(fields.board.get("lights", ("", line))[0].split())
            buttons = tuple(fields.board.get("buttons", (" ".join(lights), line))[0].split())
            index = {n: i for i, n in enumerate(lights)}
            changes: dict[str, tuple[tuple[int, int], ...]] = {}
            for item in fields.board.get("presses", ("", line))[0].split(","):
                name, _eq, hit = item.partition("=")
                if name.strip():
                    changes[name.strip()] = tuple(sorted((index[n], 1) for n in hit.split()))
            pm = PressMap(lights, buttons, tuple(changes[b] for b in buttons))
            return count_board(pm, target, source.strip(), word)
    except (CountloError, KeyError, ValueError) as e:
        problems.append((line, str(e) if isinstance(e, CountloError) else
                         _("the board lines do not make a press map: {what}").format(what=shown(str(e)))))
        return None
    problems.append((line, _("unknown board {kind}: expected merlin, holes, graph or buttons").format(
        kind=shown(word))))
    return None


@dataclass(frozen=True)
class TapeStep:
    """A click as read: its cell and count, each None where its line did not parse (that problem
    is reported; the click still counts so later undo and fix lines keep their meaning)."""

    cell: int | None
    count: int | None


@dataclass(frozen=True)
class Tape:
    """The events applied (undo and fix done), counts not yet checked; lines say where each came from."""

    shape: CountBoard
    start: int | None
    steps: tuple[TapeStep, ...]
    start_line: int
    step_lines: tuple[int, ...]   # the line of each click
    count_lines: tuple[int, ...]  # where each count was last written: [0] the start, [i] step i

    def parsed(self) -> tuple[int, tuple[Step, ...]]:
        """The start and steps, when every line parsed (reading raises on any problem first)."""
        steps = tuple(Step(s.cell, s.count) for s in self.steps
                      if s.cell is not None and s.count is not None)
        if self.start is None or len(steps) != len(self.steps):
            raise ValueError("the tape has an unparsed count; its problems were not reported")
        return self.start, steps


@dataclass(frozen=True)
class Transcript:
    """A read transcript: header, what was written (events), and the game record they make.

    `record` is None until a start count is written. Line numbers are where things were
    read from; they are not part of equality (a canonical rewrite moves them).
    """

    header: Header
    events: tuple[Event, ...]
    record: Record | None
    line_of_step: tuple[int, ...] = field(default=(), compare=False)
    count_lines: tuple[int, ...] = field(default=(), compare=False)
    source: str = field(default="transcript", compare=False)
    format: str = field(default="countlo", compare=False)

    @property
    def shape(self) -> CountBoard:
        return self.header.shape

    def line_of_count(self, step: int) -> int:
        """The line where the count of `step` was written (step 0: the starting count)."""
        return self.count_lines[step] if step < len(self.count_lines) else 0

    @property
    def notes(self) -> list[str]:
        return [e.text or "" for e in self.events if isinstance(e, NoteEvent)]


# --- reading -------------------------------------------------------------------------------

def _count(token: str, what: str, problems: Problems, line: int) -> int | None:
    if _NUMBER.match(token) and len(token) <= MAX_COUNT_DIGITS:
        return int(token)
    problems.append((line, _("expected {what} (a whole number), found {token}").format(
        what=_(what), token=shown(token))))
    return None


def _split_comment(raw: str) -> tuple[str, str | None]:
    """The code before '#' and the comment after it (None if there is none or it is blank)."""
    code, _, comment = raw.partition("#")
    return code.strip(), (_one_line(comment) or None)


@dataclass
class _Fields:
    """What the header paragraph said; None where a key was not given (or did not parse)."""

    magic: int | None = None  # the line of '# countlo transcript N'
    version: int = VERSION
    sized: bool = False  # a '# size:' line was there (`shape` None: it did not parse)
    shape: Shape | None = None
    seed: int | None = None
    rules: dict[str, tuple[str, int]] = field(default_factory=dict)  # key: (value, line)
    board: dict[str, tuple[str, int]] = field(default_factory=dict)  # a press board's lines (_BOARD)
    known: dict[str, str] = field(default_factory=dict)  # date, strategy, engine
    extra: list[tuple[str, str]] = field(default_factory=list)


def _parse_header(lines: list[str], problems: Problems) -> tuple[_Fields, int, list[Event]]:
    """Header fields, the index of the first body line, and comments in the header as notes."""
    fields = _Fields()
    seen: set[str] = set()
    notes: list[Event] = []
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].lstrip().startswith("#"):
        n, text = i + 1, lines[i].strip()
        i += 1
        magic, match = _MAGIC_LINE.match(text), _FIELD.match(text)
        if magic:
            fields.magic = n
            version = magic.group(1)
            if not (_NUMBER.match(version) and len(version) < 6):
                problems.append((n, _("expected '# {magic} {version}', found version {found}").format(
                    magic=MAGIC, version=VERSION, found=shown(version))))
            elif int(version) > VERSION:
                problems.append((n, _("written by a newer countlo (format {found}); this one reads "
                                      "format {version}").format(found=version, version=VERSION)))
            else:
                fields.version = int(version)
        elif match:
            key, value = match.group(1).lower(), _one_line(match.group(2))
            if key in seen:
                problems.append((n, _("header key {key} given twice").format(key=shown(key))))
                continue
            seen.add(key)
            if key == "size":
                fields.sized = True
                try:
                    fields.shape = Shape.parse(value)
                except (CountloError, ValueError) as e:
                    problems.append((n, str(e) if isinstance(e, CountloError) else
                                     _("bad board size {text}").format(text=shown(value))))
            elif key == "seed":
                if re.match(r"^-?[0-9]{1,30}$", value):
                    fields.seed = int(value)
                else:
                    problems.append((n, _("expected the seed as a whole number, found {text}").format(
                        text=shown(value))))
            elif key in _RULES:
                fields.rules[key] = (value, n)
            elif key in _BOARD:
                fields.board[key] = (value, n)
            elif key in _KNOWN:
                fields.known[key] = value
            else:
                fields.extra.append((key, value))
        else:
            notes.append(NoteEvent(_one_line(text[1:]), line=n))
    return fields, i, notes


def _with_rules(shape: Shape, given: dict[str, tuple[str, int]], problems: Problems) -> Shape | None:
    """The shape under the rules named by the header's topology, rule and target lines."""
    try:
        rule = Rule.from_spec(given["rule"][0]) if "rule" in given else Rule.named("plus")
        rules = Rules.make(given.get("topology", ("plane", 0))[0], rule, 2,
                           given.get("target", ("dark", 0))[0])
    except CountloError as e:
        line = min(n for _, n in given.values())
        problems.append((line, str(e)))
        return None
    return shape.with_rules(rules)


def _late_size(lines: list[str], first: int, problems: Problems) -> Shape | None:
    """The size from a '# size:' comment after the header paragraph but before the first event
    (a header split by a blank line), or None."""
    for i in range(first, len(lines)):
        text = lines[i].strip()
        if text and not text.startswith("#"):
            return None
        m = _FIELD.match(text)
        if m and m.group(1).lower() == "size":
            try:
                return Shape.parse(m.group(2))
            except (CountloError, ValueError):
                problems.append((i + 1, _("bad board size {text}: expected ROWSxCOLS").format(
                    text=shown(m.group(2)))))
                return None
    return None


def _parse_body(lines: list[str], first: int, shape: CountBoard | None, problems: Problems) -> list[Event]:
    """One Event per meaningful body line; syntax problems are appended to `problems`."""
    events: list[Event] = []
    for i in range(first, len(lines)):
        n, raw = i + 1, lines[i]
        code, comment = _split_comment(raw)
        if not code:
            if raw.lstrip().startswith("#"):
                events.append(NoteEvent(comment or "", line=n))
            continue
        tokens = [t.rstrip(":") for t in code.replace(",", " ").split()]
        tokens = [t for t in tokens if t not in ("", "->", "=", "=>")]
        word = tokens[0].lower() if tokens else ""
        rest = tokens[1:]
        if word == "start":
            c = None
            if len(rest) != 1:
                problems.append((n, _("expected 'start COUNT', the count shown before any click")))
            else:
                c = _count(rest[0], N_("the starting count"), problems, n)
            events.append(StartEvent(c, comment, line=n))
        elif word == "undo":
            if rest:
                problems.append((n, _("expected 'undo' alone on its line")))
            events.append(UndoEvent(comment, line=n))
        elif word == "fix":
            if len(rest) != 2:
                problems.append((n, _("expected 'fix STEP COUNT' (step 0 is the starting count)")))
                continue
            s = _count(rest[0], N_("the step number"), problems, n)
            c = _count(rest[1], N_("the corrected count"), problems, n)
            if s is not None and c is not None:
                events.append(FixEvent(s, c, comment, line=n))
        else:
            # a click line that does not parse still counts as a click (cell and count None),
            # so later undo and fix lines keep their meaning and their problems are real
            cell = c = None
            if len(tokens) < 2:
                problems.append((n, _("expected a clicked cell and the count after it, like 'C4 17', "
                                      "found {text}").format(text=shown(code))))
            else:
                c = _count(tokens[-1], N_("the count after the click"), problems, n)
                try:
                    cell = shape.parse_cell(" ".join(tokens[:-1])) if shape else None
                except (CountloError, ValueError) as e:
                    problems.append((n, str(e) if isinstance(e, CountloError) else
                                     _("bad cell name {text}").format(text=shown(" ".join(tokens[:-1])))))
            events.append(StepEvent(cell, c, comment, line=n))
    return events


def apply_events(shape: CountBoard, events: list[Event] | tuple[Event, ...], problems: Problems) -> Tape:
    """The events with undo and fix applied; order problems (undo of nothing, ...) go to `problems`."""
    start, start_line, started = None, 0, False
    steps: list[list[int | None]] = []  # [cell, count, step line, count line]
    for e in events:
        if isinstance(e, StartEvent):
            if started:
                problems.append((e.line, _("a second 'start' (the first was on line {line})").format(
                    line=start_line)))
                continue
            start, start_line, started = e.count, e.line, True
        elif isinstance(e, StepEvent):
            if not started:
                problems.append((e.line, _("expected 'start COUNT' before the first click")))
                continue
            steps.append([e.cell, e.count, e.line, e.line])
        elif isinstance(e, UndoEvent):
            if not steps:
                problems.append((e.line, _("'undo' with no click to take back")))
                continue
            steps.pop()
        elif isinstance(e, FixEvent):
            if not started or e.step > len(steps):
                have = _("no start yet") if not started else _("steps are 0..{last}").format(last=len(steps))
                problems.append((e.line, _("'fix {step}' names no step ({have}; 0 is the start)").format(
                    step=e.step, have=have)))
                continue
            if e.step == 0:
                start, start_line = e.count, e.line
            else:
                steps[e.step - 1][1] = e.count
                steps[e.step - 1][3] = e.line
    return Tape(
        shape, start, tuple(TapeStep(s[0], s[1]) for s in steps), start_line,
        tuple(_line(s[2]) for s in steps), (start_line,) + tuple(_line(s[3]) for s in steps),
    )


def _line(n: int | None) -> int:
    if n is None:  # line numbers are always set; only cells and counts may be missing
        raise ValueError("a step without a line number")
    return n


def count_problems(tape: Tape) -> list[tuple[int, str]]:
    """Every count change no board can show, at the line its count was written (check_step)."""
    out: list[tuple[int, str]] = []
    shape, before = tape.shape, tape.start
    if before is not None:
        try:
            check_start(shape, before)
        except CountloError as e:
            out.append((tape.count_lines[0], str(e)))
            before = None
    for i, s in enumerate(tape.steps, 1):
        if before is None or s.cell is None or s.count is None:  # after a line that did not parse
            before = s.count if s.count is not None and 0 <= s.count <= shape.cells else None
            continue
        try:
            check_step(shape, s.cell, before, s.count, where=_("step {step}: ").format(step=i))
        except CountloError as e:
            out.append((tape.count_lines[i], str(e)))
        before = s.count if 0 <= s.count <= shape.cells else None
    return out


def read(text: str, source: str = "transcript") -> Transcript:
    """The transcript in `text`; raises TranscriptError listing every problem with its line."""
    problems: Problems = []
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    if not text.strip():
        raise TranscriptError([(1, _("empty: expected '# {magic} {version}', a '# size: RxC' line, "
                                     "then 'start COUNT'").format(magic=MAGIC, version=VERSION))], source)
    fields, first, notes = _parse_header(lines, problems)
    shape: CountBoard | None = fields.shape
    named = fields.board.get("board", ("", 0))[0].split()[:1] in (["graph"], ["buttons"])
    if named:
        shape = _press_board(fields, None, problems)
    elif not fields.sized:
        known = len(problems)
        shape = _late_size(lines, first, problems)
        if shape is None and len(problems) == known:
            problems.append((fields.magic or 1, _("missing the board size: expected a header "
                                                  "line like '# size: 6x6'")))
    if isinstance(shape, Shape) and fields.rules:
        shape = _with_rules(shape, fields.rules, problems)
    if isinstance(shape, Shape) and fields.board:
        shape = _press_board(fields, shape, problems)
    events = notes + _parse_body(lines, first, shape, problems)
    if shape is None:
        raise TranscriptError(sorted(problems), source)
    tape = apply_events(shape, events, problems)
    bad = count_problems(tape)
    if problems:
        raise TranscriptError(sorted(problems + bad), source)
    if bad:
        raise ImpossibleCountsError(bad, source, tape)
    header = Header(shape, fields.version, fields.known.get("date"),
                    fields.known.get("strategy"), fields.seed, fields.known.get("engine"),
                    tuple(fields.extra))
    return from_tape(header, tuple(events), tape, source, "countlo")


def from_tape(header: Header, events: tuple[Event, ...], tape: Tape, source: str,
              fmt: str) -> Transcript:
    """The Transcript of a checked tape (its counts must all be possible)."""
    record = None
    if tape.start is not None:
        start, steps = tape.parsed()
        record = Record(tape.shape, start, steps)
    return Transcript(header, events, record, tape.step_lines, tape.count_lines, source, fmt)


# --- writing -------------------------------------------------------------------------------

def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def event_line(event: Event, shape: CountBoard) -> str:
    """The canonical line of one event."""
    if isinstance(event, NoteEvent):
        return f"# {_one_line(event.text or '')}".rstrip()
    if isinstance(event, (StartEvent, StepEvent)) and event.count is None:
        raise ValueError("an event whose count did not parse is never written")
    if isinstance(event, StartEvent):
        body = f"start {event.count}"
    elif isinstance(event, StepEvent):
        if event.cell is None:
            raise ValueError("an event whose cell did not parse is never written")
        body = f"{shape.name(event.cell)} {event.count}"
    elif isinstance(event, UndoEvent):
        body = "undo"
    else:
        body = f"fix {event.step} {event.count}"
    return f"{body}  # {_one_line(event.text)}" if event.text else body


def dumps(transcript: Transcript) -> str:
    """The transcript as canonical text: header, a blank line, one line per event."""
    shape = transcript.header.shape
    body = [event_line(e, shape) for e in transcript.events]
    return "\n".join(transcript.header.lines() + [""] + body) + "\n"


def load(path: str) -> Transcript:
    """The countlo transcript in the file at `path` (see formats.load for every format)."""
    return read(read_text(path), source=str(path))


class Resumable(NamedTuple):
    """A transcript file read for resuming: what it holds, and an unfinished last line (None if
    it ends with a newline) that `Writer.reopen` will set aside."""

    transcript: Transcript
    dropped: str | None


class Writer:
    """Appends a transcript one line at a time; each line is flushed and fsync'd when written."""

    def __init__(self, path: str, header: Header, events: list[Event], handle: TextIO):
        self.path = str(path)
        self.header = header
        self.events = events
        self._handle = handle
        self.fresh = not events  # created by this session (not reopened with --resume)

    @classmethod
    def create(cls, path: str, header: Header) -> Writer:
        """A new transcript at `path` with `header` written; refuses to overwrite a file."""
        try:
            handle = open(path, "x", encoding="utf-8", newline="\n")  # noqa: SIM115 (kept open: the Writer appends)
        except FileExistsError:
            if os.path.isdir(path):  # a folder cannot be resumed: say what it is
                raise TranscriptFileError(_("cannot create {path}: {reason}").format(
                    path=path, reason=reason(IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))))) from None
            raise TranscriptFileError(
                _("{path} already exists: resume it or choose another name").format(path=path)) from None
        except OSError as e:
            raise TranscriptFileError(_("cannot create {path}: {reason}").format(
                path=path, reason=reason(e))) from None
        w = cls(path, header, [], handle)
        w._append("\n".join(header.lines()) + "\n\n")
        try:
            fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass
        return w

    @classmethod
    def resume(cls, path: str) -> tuple[Writer, Transcript]:
        """The writer reopened for appending, and what the file holds (see `examine`, `reopen`)."""
        return cls.reopen(path, cls.examine(path))

    @staticmethod
    def examine(path: str) -> Resumable:
        """What the transcript at `path` holds, read and checked without writing anything: a
        file of notes, or a hand-written table without a final newline, is refused unchanged.
        The caller checks the rest (size, rules, seed) before `reopen` writes."""
        text = read_text(path)
        first = next((ln for ln in text.split("\n") if ln.strip()), "")
        if not _MAGIC_LINE.match(first.strip()):
            raise TranscriptFileError(
                _("{path} is not a countlo transcript (it does not begin with '# {magic} {version}'); "
                  "nothing was changed. Replay other formats with countlo replay").format(
                      path=path, magic=MAGIC, version=VERSION))
        dropped = None
        if not text.endswith("\n"):
            dropped = text[text.rfind("\n") + 1:]
            text = text[:len(text) - len(dropped)]
        transcript = read(text, source=str(path))  # raises before anything is written
        return Resumable(transcript, dropped)

    @classmethod
    def reopen(cls, path: str, found: Resumable) -> tuple[Writer, Transcript]:
        """The writer reopened for appending the transcript `examine` found at `path`; an
        unfinished last line (a crash mid-write) is cut off here and named in a note."""
        transcript, dropped = found.transcript, found.dropped
        try:
            if dropped is not None:
                with open(path, "r+b") as f:
                    data = f.read()
                    f.truncate(data.rfind(b"\n") + 1)
                    f.flush()
                    os.fsync(f.fileno())
            handle = open(path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115 (the Writer appends)
        except OSError as e:
            raise TranscriptFileError(_("cannot write {path}: {reason}").format(
                path=path, reason=reason(e))) from None
        w = cls(path, transcript.header, list(transcript.events), handle)
        if dropped is not None and dropped.strip():
            w.note(f"resumed: set aside an unfinished last line {shown(dropped.strip(), 200)}")
            transcript = read(read_text(path), source=str(path))
        return w, transcript

    def _append(self, text: str) -> None:
        try:
            self._handle.write(text)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as e:  # a full disk: one line (the lines written before are on disk)
            raise TranscriptFileError(_("cannot write {path}: {reason}").format(
                path=self.path, reason=reason(e))) from None

    def _add(self, event: Event) -> None:
        problems: Problems = []
        tape = apply_events(self.header.shape, self.events + [event], problems)
        if problems:
            raise TranscriptFileError(f"{self.path}: {problems[-1][1]}")
        bad = count_problems(tape)
        if bad:
            raise BadCountError(bad[-1][1])
        self.events.append(event)
        self._append(event_line(event, self.header.shape) + "\n")

    def start(self, count: int) -> None:
        self._add(StartEvent(count))

    def step(self, cell: int, count: int, comment: str | None = None) -> None:
        self._add(StepEvent(cell, count, comment or None))

    def undo(self) -> None:
        self._add(UndoEvent())

    def fix(self, step: int, count: int) -> None:
        self._add(FixEvent(step, count))

    def note(self, text: str) -> None:
        self._add(NoteEvent(_one_line(text)))

    @property
    def worth_keeping(self) -> bool:
        """Whether the file holds something to resume or replay: a click, a note (a typed line
        the record could not take, a correction), or what it held before it was resumed. A
        session left before its first click keeps no file (issue 26, item 9)."""
        record = self.record
        return (not self.fresh or (record is not None and bool(record.steps))
                or any(isinstance(e, NoteEvent) for e in self.events))

    @property
    def record(self) -> Record | None:
        """The game record written so far."""
        tape = apply_events(self.header.shape, self.events, [])
        if tape.start is None:
            return None
        start, steps = tape.parsed()
        return Record(tape.shape, start, steps)

    def close(self) -> None:
        if not self._handle.closed:
            # every line was flushed when written; after a write error (said already) the
            # unwritten rest would fail again here
            with contextlib.suppress(OSError):
                self._handle.close()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
