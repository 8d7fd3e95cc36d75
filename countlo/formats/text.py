"""Reading the text of a user's file: UTF-8 (a byte-order mark allowed), errors as one line, and
never more than a stated size (docs/limits.md): `countlo solve /dev/zero` reads 64 MB and says so
in one line, rather than filling the memory.

Every file countlo reads as input goes through here: boards, targets, graphs and rule files
(`read_input`, also for standard input) and transcripts and hand-written records (`read_text`)."""

from __future__ import annotations

import sys
from pathlib import Path

from countlo.errors import BoardFormatError, TranscriptError, TranscriptFileError
from countlo.i18n import N_, _, reason

NOT_UTF8 = N_("not UTF-8 text (save the file as UTF-8)")
BOARD_BYTES = 64 << 20
"""The most read of a board, target, graph or rule file, or of standard input (an 8000x8000 grid)."""
TRANSCRIPT_BYTES = 16 << 20
"""The most read of a transcript or hand-written record (hundreds of thousands of steps)."""


def _too_big(source: object, limit: int) -> str:
    return _("{source} holds more than {mb} MB, the most countlo reads from one input").format(
        source=source, mb=limit >> 20)


def _read_bytes(path: str | Path, error: type[TranscriptFileError | BoardFormatError], limit: int) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # one byte more than allowed tells a file that is too big
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise error(_("cannot read {path}: {reason}").format(path=path, reason=reason(e))) from None
    if len(data) > limit:
        raise error(_too_big(path, limit))
    return data


def read_stdin(limit: int | None = None, source: str = "stdin") -> str:
    """Standard input as text, at most `limit` characters (BOARD_BYTES unless given;
    BoardFormatError above it)."""
    limit = BOARD_BYTES if limit is None else limit
    text = sys.stdin.read(limit + 1)
    if len(text) > limit:
        raise BoardFormatError(_too_big(source, limit))
    return text


def _bad_line(data: bytes, e: UnicodeDecodeError) -> int:
    return data[: e.start].count(b"\n") + 1


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a transcript file (a leading byte-order mark dropped)."""
    data = _read_bytes(path, TranscriptFileError, TRANSCRIPT_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TranscriptError([(_bad_line(data, e), _(NOT_UTF8))], str(path)) from None


def read_input(path: str | None) -> str:
    """The text of a board, target, rule or graph file, or of standard input for '-' (or no
    path): UTF-8, a leading byte-order mark dropped (Windows editors write one)."""
    if path in (None, "-"):
        return read_stdin().removeprefix("\ufeff")
    data = _read_bytes(path, BoardFormatError, BOARD_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BoardFormatError(_("{source} line {line}: not UTF-8 text (save the file as UTF-8)").format(
            source=path, line=_bad_line(data, e))) from None
