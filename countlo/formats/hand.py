"""The documented hand-written formats, imported as they are, and telling the formats apart.

- ``rows``: the starting count on the first line, then R lines of C counts: the count read
  after clicking each cell once, in reading order, never clicking back. The board size is the
  shape of the table, unless a size is given (``--size``, or a ``# size:`` line): then the
  table may hold only the first rows, as a game in progress does.
- ``restore``: the starting count, then one line per cell in reading order holding two counts:
  after clicking the cell, and after clicking it back. Clicking back restores the board, so
  every second count repeats the starting count.

Both allow ``#`` comments, and an optional ``# size: RxC`` line (needed by ``restore`` when
the number of cells is not a square). Both import as a Transcript whose steps carry the line
they were read from.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from countlo.board import Shape
from countlo.countboard import grid_only
from countlo.errors import CountloError, TranscriptError, TranscriptFileError
from countlo.formats.text import read_text
from countlo.formats.transcript import (
    Event,
    Header,
    ImpossibleCountsError,
    NoteEvent,
    Problems,
    StartEvent,
    StepEvent,
    Tape,
    TapeStep,
    Transcript,
    count_problems,
    from_tape,
    read,
)
from countlo.hidden.record import Record
from countlo.i18n import _, ngettext
from countlo.tokens import shown

FORMATS = ("countlo", "rows", "restore")
_SIZE_COMMENT = re.compile(r"^#\s*size\s*:\s*(.*?)\s*$", re.IGNORECASE)
_NUMBER = re.compile(r"^[0-9]{1,9}$")
_LETTER = re.compile(r"[A-Za-z]")
_MAGIC = re.compile(r"^\s*#\s*countlo\s+transcript\b", re.IGNORECASE)


def _data_lines(text: str) -> tuple[list[tuple[int, list[str]]], list[tuple[int, str]]]:
    """(line number, tokens) of every line with something before '#', and the '# size:' comments."""
    rows, sizes = [], []
    for n, raw in enumerate(text.split("\n"), 1):
        code, _, comment = raw.partition("#")
        m = _SIZE_COMMENT.match("#" + comment) if not code.strip() else None
        if m:
            sizes.append((n, m.group(1)))
        tokens = code.replace(",", " ").replace(";", " ").split()
        if tokens:
            rows.append((n, tokens))
    return rows, sizes


def detect(text: str, source: str = "transcript") -> str:
    """The format of `text`: "countlo", "rows" or "restore"; raises TranscriptError when unsure.

    countlo: the first non-blank line is '# countlo transcript', or some line holds a word or a
    cell name (letters). Otherwise only numbers. Lines of two numbers are restore or the rows
    of a board two columns wide: a '# size:' line decides; else restore when one number is the
    second number of at least half the lines, and of two or more (clicking back restores the
    starting count, even when the starting count itself was mistyped), rows when the starting
    count is never a second number, and an error in between. Any other table of numbers is rows.
    """
    first = next((ln for ln in text.split("\n") if ln.strip()), "")
    if _MAGIC.match(first):
        return "countlo"
    rows, sizes = _data_lines(text)
    if any(_LETTER.search(" ".join(t)) for _, t in rows):
        return "countlo"
    if not rows:
        raise TranscriptError([(1, _("nothing to read: expected a transcript, or counts in the "
                                     "'rows' or 'restore' format"))], source)
    body = rows[1:]
    if not body or any(len(t) != 2 for _, t in body):
        return "rows"
    shape = _size_from_comment(sizes, [], source)
    if shape is not None:
        if shape.cols == 2 and shape.rows == len(body):
            return "rows"
        return "restore"
    seconds = [t[1] for _, t in body]
    most = max(seconds.count(x) for x in set(seconds))
    if (2 * most >= len(body) and most >= 2) or set(seconds) == {rows[0][1][0]}:
        return "restore"
    if rows[0][1][0] not in seconds:
        return "rows"
    raise TranscriptError([(rows[1][0], _(
        "cannot tell the format: lines of two counts are either 'restore' (after the click, "
        "after clicking back) or 'rows' of a board two columns wide; say which with "
        "--format restore or --format rows, or add a '# size: RxC' line"))], source)


def _size_from_comment(sizes: list[tuple[int, str]], problems: Problems, source: str) -> Shape | None:
    if not sizes:
        return None
    n, text = sizes[0]
    try:
        return Shape.parse(text)
    except (CountloError, ValueError):
        problems.append((n, _("bad board size {text}: expected ROWSxCOLS like 6x6").format(text=shown(text))))
        return None


def _numbers(rows: list[tuple[int, list[str]]], problems: Problems) -> list[tuple[int, list[int | None]]]:
    out: list[tuple[int, list[int | None]]] = []
    for n, tokens in rows:
        values: list[int | None] = []
        for t in tokens:
            if _NUMBER.match(t):
                values.append(int(t))
            else:
                problems.append((n, _("expected counts (whole numbers), found {text}").format(text=shown(t))))
                values.append(None)
        out.append((n, values))
    return out


def _finish(shape: Shape, steps: list[tuple[int, int | None, int]], start: int | None, start_line: int,
            problems: Problems, source: str, fmt: str, strategy: str) -> Transcript:
    """Build and check the transcript of (cell, count, line) steps; raise on any problem."""
    tape = Tape(shape, start, tuple(TapeStep(c, k) for c, k, _ in steps), start_line,
                tuple(n for _, _, n in steps), (start_line,) + tuple(n for _, _, n in steps))
    bad = count_problems(tape)
    if problems:
        raise TranscriptError(sorted(problems + bad), source)
    if bad:
        raise ImpossibleCountsError(bad, source, tape)
    events: tuple[Event, ...] = (NoteEvent(f"imported from the '{fmt}' format", line=0),
                                 StartEvent(start, line=start_line)) + tuple(
        StepEvent(c, k, line=n) for c, k, n in steps)
    return from_tape(Header(shape, strategy=strategy), events, tape, source, fmt)


def _start(table: list[tuple[int, list[int | None]]], problems: Problems) -> tuple[int | None, int]:
    n, values = table[0]
    if len(values) != 1:
        problems.append((n, ngettext("expected the starting count alone on the first line, found {n} number",
                                     "expected the starting count alone on the first line, found {n} numbers",
                                     len(values)).format(n=len(values))))
    return (values[0] if values else None), n


def read_rows(text: str, source: str = "transcript", shape: Shape | None = None) -> Transcript:
    """Import the 'rows' format: start count, then the count after each cell clicked in reading order.

    Without a size the table is the whole board. With one (`shape`, from --size, or a '# size:'
    line) the table may stop early, as a game in progress does: the first rows of the board,
    the last of them possibly cut short."""
    problems: list[tuple[int, str]] = []
    rows, sizes = _data_lines(text)
    if not rows:
        raise TranscriptError([(1, _("no counts: expected the starting count, then one line of counts "
                                     "per board row"))], source)
    table = _numbers(rows, problems)
    start, start_line = _start(table, problems)
    body = table[1:]
    if not body:
        raise TranscriptError([(start_line, _("expected lines of counts after the starting count, one "
                                              "line per board row"))], source)
    declared = _size_from_comment(sizes, problems, source)
    if shape is not None and declared is not None and shape != declared:
        problems.append((sizes[0][0], _("'# size: {declared}' but --size says {shape}").format(
            declared=declared, shape=shape)))
    board = shape or declared
    if board is not None:
        return _partial_rows(board, body, start, start_line, problems, source)
    cols = len(body[0][1])
    for n, values in body[1:]:
        if len(values) != cols:
            problems.append((n, _("expected {cols} counts like the first row (line {line}), found "
                                  "{n}").format(cols=cols, line=body[0][0], n=len(values))))
    try:
        board = Shape(len(body), cols)
    except CountloError as e:
        raise TranscriptError([(body[0][0], str(e))], source) from None
    steps = []  # a missing or unreadable count stays as None, so later changes are still checked
    for r, (n, values) in enumerate(body):
        padded = (values + [None] * cols)[:cols]
        steps += [(r * cols + c, v, n) for c, v in enumerate(padded)]
    return _finish(board, steps, start, start_line, problems, source, "rows", "sequential")


def _partial_rows(shape: Shape, body: list[tuple[int, list[int | None]]], start: int | None, start_line: int,
                  problems: Problems, source: str) -> Transcript:
    """A rows table of a board of known size: at most its rows, each of its columns' counts but
    the last row, which may stop early (the game is not over)."""
    if len(body) > shape.rows:
        problems.append((body[shape.rows][0], _("a {shape} board has {rows} rows; found {n} lines of "
                                                "counts").format(shape=shape, rows=shape.rows, n=len(body))))
    steps = []
    for r, (n, values) in enumerate(body[: shape.rows]):
        last = r == len(body) - 1
        if len(values) > shape.cols or (len(values) < shape.cols and not last):
            problems.append((n, _("expected {cols} counts, one per column of the {shape} board, found "
                                  "{n}").format(cols=shape.cols, shape=shape, n=len(values))))
        padded = values if last else (values + [None] * shape.cols)
        steps += [(r * shape.cols + c, v, n) for c, v in enumerate(padded[: shape.cols])]
    return _finish(shape, steps, start, start_line, problems, source, "rows", "sequential")


def read_restore(text: str, source: str = "transcript", shape: Shape | None = None) -> Transcript:
    """Import the 'restore' format: the start count, then per cell the counts after clicking it
    and after clicking it back (two steps of the record, both at that line)."""
    problems: list[tuple[int, str]] = []
    rows, sizes = _data_lines(text)
    if not rows:
        raise TranscriptError([(1, _("no counts: expected the starting count, then two counts a line "
                                     "(after the click, after clicking back)"))], source)
    table = _numbers(rows, problems)
    start, start_line = _start(table, problems)
    body = table[1:]
    for n, values in body:
        if len(values) != 2:
            problems.append((n, _("expected two counts (after the click, after clicking back), found "
                                  "{n}").format(n=len(values))))
    declared = _size_from_comment(sizes, problems, source)
    if shape is not None and declared is not None and shape != declared:
        problems.append((sizes[0][0], _("'# size: {declared}' but --size says {shape}").format(
            declared=declared, shape=shape)))
    shape = shape or declared
    if shape is None:
        side = math.isqrt(len(body))
        if side * side != len(body) or side == 0:
            raise TranscriptError(sorted(problems + [(start_line, (
                _("{n} cells is not a square board: add a line '# size: RxC' or pass --size "
                  "RxC").format(n=len(body))))]), source)
        shape = Shape(side, side)
    if len(body) != shape.cells:
        where = body[-1][0] if body else start_line
        problems.append((where, _("a {shape} board has {cells} cells, one line each; found {n} "
                                  "lines").format(shape=shape, cells=shape.cells, n=len(body))))
    steps = []  # a missing or unreadable count stays as None, so later changes are still checked
    for k, (n, values) in enumerate(body[: shape.cells]):
        steps += [(k, v, n) for v in (values + [None, None])[:2]]
    return _finish(shape, steps, start, start_line, problems, source, "restore", "restore")


def parse(text: str, source: str = "transcript", fmt: str | None = None,
          shape: Shape | None = None) -> Transcript:
    """The transcript in `text`, in format `fmt` (detected when None). `shape`, when given, is
    the board size (what a restore file of a non-square board cannot say without a '# size:'
    line); a size the file states otherwise must agree with it."""
    fmt = fmt or detect(text, source)
    if fmt == "restore":
        return read_restore(text, source, shape)
    if fmt == "countlo":
        t = read(text, source)
    elif fmt == "rows":
        t = read_rows(text, source, shape)
    else:
        raise TranscriptFileError(_("unknown format {fmt!r}: choose one of {names}").format(
            fmt=fmt, names=", ".join(FORMATS)))
    if shape is not None and t.shape != shape:
        raise TranscriptError([(1, _("the {fmt} file is a {file} board, but --size says {shape}").format(
            fmt=fmt, file=t.shape, shape=shape))], source)
    return t


def load(path: str | Path, fmt: str | None = None, shape: Shape | None = None) -> Transcript:
    """The transcript in the file at `path`, in any format (detected when `fmt` is None)."""
    return parse(read_text(path), str(path), fmt, shape)


def dumps_rows(record: Record) -> str:
    """The 'rows' text of a record that clicks every cell once in reading order."""
    shape = grid_only(record.shape, "the 'rows' format")
    if [s.cell for s in record.steps] != list(range(shape.cells)):
        raise TranscriptFileError(_("the 'rows' format needs every cell clicked once in reading order"))
    counts = [s.count for s in record.steps]
    width = len(str(shape.cells))
    size = [f"# size: {shape}"] if shape.cols == 2 else []  # two columns could pass for 'restore'
    lines = size + [str(record.start)] + [
        " ".join(f"{c:>{width}}" for c in counts[r * shape.cols:(r + 1) * shape.cols])
        for r in range(shape.rows)]
    return "\n".join(lines) + "\n"


def dumps_restore(record: Record) -> str:
    """The 'restore' text of a record that clicks each cell, then clicks it back, in reading order."""
    shape = grid_only(record.shape, "the 'restore' format")
    if [s.cell for s in record.steps] != [k for k in range(shape.cells) for _ in (0, 1)]:
        raise TranscriptFileError(_("the 'restore' format needs each cell clicked and clicked back, in "
                                    "reading order"))
    size = "" if shape.is_square else f"# size: {shape}\n"
    width = len(str(shape.cells))
    pairs = [record.steps[i:i + 2] for i in range(0, len(record.steps), 2)]
    return size + f"{record.start}\n" + "".join(
        f"{a.count:>{width}} {b.count:>{width}}\n" for a, b in pairs)
