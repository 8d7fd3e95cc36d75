"""argparse in the language countlo speaks: its own words (usage, options, its errors) and help
text wrapped by terminal columns, so Chinese help (two columns a character, no spaces) wraps right.

argparse looks its words up through the module-level names `_` and `ngettext` each time it uses
them (stdlib argparse.py); `speak` points those at countlo's catalogue, which translates the
argparse sentences listed here (marked so Babel extracts them).
"""

from __future__ import annotations

import argparse
import re

from countlo.i18n import N_, _, fill, ngettext, width

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unexpected option string: %s"),
    N_("ignored explicit argument %r"),
    N_("%(prog)s: error: %(message)s\n"),
)


def expected_arguments(n: int) -> str:
    """argparse's one plural sentence, 'expected 2 arguments' (here so Babel extracts it)."""
    return ngettext("expected %s argument", "expected %s arguments", n) % n


def speak() -> None:
    """Make argparse use countlo's catalogue (in English it gives the words back unchanged)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def wrapped(text: str, columns: int) -> str:
    """`text` with each line longer than `columns` terminal columns broken up: English by
    textwrap (as before there was a Chinese catalogue), Chinese between characters as well."""
    lines: list[str] = []
    for line in text.split("\n"):
        if width(line) <= columns:
            lines.append(line)
        elif line.isascii():
            import textwrap

            lines.append(textwrap.fill(line, columns))
        else:
            lines.extend(fill(line, columns))
    return "\n".join(lines)


class HelpFormatter(argparse.HelpFormatter):
    """Wraps help by terminal columns, breaking between Chinese characters as well as at spaces."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        text = re.sub(r"\s+", " ", text).strip()
        return fill(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        text = re.sub(r"\s+", " ", text).strip()
        return "\n".join(indent + line for line in fill(text, width - len(indent)))


class RawDescriptionHelpFormatter(HelpFormatter):
    """HelpFormatter that keeps the description's and epilog's own line breaks."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


HELP_COLUMNS = 79  # help text fits an 80-column terminal


def keep_lines(p: argparse.ArgumentParser, epilog: str) -> None:
    """`p`'s description and `epilog` shown on their own lines, broken to HELP_COLUMNS."""
    p.epilog = wrapped(epilog, HELP_COLUMNS)
    p.formatter_class = RawDescriptionHelpFormatter
    p.description = wrapped(p.description or "", HELP_COLUMNS)
