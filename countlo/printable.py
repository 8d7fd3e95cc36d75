"""Text from outside (files, game programs, argv, stdin) made safe for a terminal: control
characters shown escaped.

A graph file's node name, a game program's stderr or a piped line can hold ESC sequences that
retitle or clear the terminal (`\\033]0;...\\007`, `\\033[2J`), a carriage return that overwrites
the line before, or bidirectional overrides that reorder what is read. `printable` shows each
such character as a Python escape (`\\x1b`, `\\r`, `\\u202e`) instead. `countlo.cli.main` wraps
standard output and standard error in `Printable`, so everything any command prints passes
through it; error lines also escape newlines (one line each). countlo's own terminal control
(the status line's `\\r\\x1b[K`, prompt_toolkit's screen) is written to `unescaped(stream)`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from typing import TextIO

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# C0 controls, DEL, C1 controls (0x9b is CSI on 8-bit terminals), and the bidirectional
# embeddings, overrides and isolates (a name that reads backwards)
_CONTROLS = [*range(0x20), 0x7F, *range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]


def _escape(code: int) -> str:
    ch = chr(code)
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_TABLE = {code: _escape(code) for code in _CONTROLS}
_LINES = {code: text for code, text in _TABLE.items() if chr(code) not in "\n\t"}


def printable(text: str, lines: bool = False) -> str:
    """`text` with every control character shown as its escape; with `lines`, newlines and tabs
    are kept (a block of several lines), else they are escaped too (one line)."""
    return text.translate(_LINES if lines else _TABLE)


class Printable:
    """A text stream that writes `printable(text, lines=True)` of whatever it is given."""

    def __init__(self, stream: TextIO):
        self.unescaped = stream

    def write(self, text: str) -> int:
        self.unescaped.write(printable(text, lines=True))
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.unescaped, name)


def unescaped(stream: TextIO) -> TextIO:
    """The stream under a Printable (for countlo's own control sequences), else `stream`."""
    inner = getattr(stream, "unescaped", None)  # wrappers around a Printable forward the name
    return stream if inner is None else inner
