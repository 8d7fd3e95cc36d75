"""Reading the text of a user's file: UTF-8 (a byte-order mark allowed), errors as one line."""

from __future__ import annotations

from pathlib import Path

from countlo.errors import TranscriptError, TranscriptFileError
from countlo.i18n import _, reason


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a file (a leading byte-order mark dropped)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise TranscriptFileError(_("cannot read {path}: {reason}").format(path=path, reason=reason(e))) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise TranscriptError([(line, _("not UTF-8 text (save the file as UTF-8)"))], str(path)) from None
