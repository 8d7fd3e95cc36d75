"""Reading the text of a user's file: UTF-8 (a byte-order mark allowed), errors as one line."""

from __future__ import annotations

import sys
from pathlib import Path

from countlo.errors import BoardFormatError, TranscriptError, TranscriptFileError
from countlo.i18n import N_, _, reason

NOT_UTF8 = N_("not UTF-8 text (save the file as UTF-8)")


def _read_bytes(path: str | Path, error: type[TranscriptFileError | BoardFormatError]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise error(_("cannot read {path}: {reason}").format(path=path, reason=reason(e))) from None


def _bad_line(data: bytes, e: UnicodeDecodeError) -> int:
    return data[: e.start].count(b"\n") + 1


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a transcript file (a leading byte-order mark dropped)."""
    data = _read_bytes(path, TranscriptFileError)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TranscriptError([(_bad_line(data, e), _(NOT_UTF8))], str(path)) from None


def read_input(path: str | None) -> str:
    """The text of a board, target, rule or graph file, or of standard input for '-' (or no
    path): UTF-8, a leading byte-order mark dropped (Windows editors write one)."""
    if path in (None, "-"):
        return sys.stdin.read().removeprefix("\ufeff")
    data = _read_bytes(path, BoardFormatError)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BoardFormatError(_("{source} line {line}: not UTF-8 text (save the file as UTF-8)").format(
            source=path, line=_bad_line(data, e))) from None
