"""Files and text people write and read: countlo transcripts (docs/transcripts.md), the
hand-written `rows` and `restore` formats, and visible boards as text grids.

The names below load their module on first use (PEP 562 `__getattr__`), so `countlo solve`,
which needs only `countlo.formats.textgrid`, does not pay for the transcript machinery and the
hidden-board engines behind it (start-up: bench/bench_startup.py). Type checkers see plain
imports.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy honours the name)
if TYPE_CHECKING:
    from countlo.formats.hand import detect, dumps_restore, dumps_rows, parse
    from countlo.formats.hand import load as load_any
    from countlo.formats.text import read_text
    from countlo.formats.textgrid import format_rows, parse_grid, parse_lit
    from countlo.formats.transcript import (
        Header,
        ImpossibleCountsError,
        Transcript,
        Writer,
        dumps,
        load,
        read,
    )

_HOME = {
    "countlo.formats.hand": ("detect", "dumps_restore", "dumps_rows", "parse", "load_any"),
    "countlo.formats.text": ("read_text",),
    "countlo.formats.textgrid": ("format_rows", "parse_grid", "parse_lit"),
    "countlo.formats.transcript": ("Header", "ImpossibleCountsError", "Transcript", "Writer",
                                   "dumps", "load", "read"),
}
_MODULE = {name: module for module, names in _HOME.items() for name in names}

__all__ = [
    "Header",
    "ImpossibleCountsError",
    "Transcript",
    "Writer",
    "detect",
    "dumps",
    "dumps_restore",
    "dumps_rows",
    "format_rows",
    "load",
    "load_any",
    "parse",
    "parse_grid",
    "parse_lit",
    "read",
    "read_text",
]


def __getattr__(name: str) -> object:
    """Load a public name's module on first use (the names are listed in _HOME)."""
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # noqa: PLC0415

    value = getattr(importlib.import_module(module), "load" if name == "load_any" else name)
    globals()[name] = value
    return value
