"""Reading what people type: ASCII whole numbers of bounded length, and bad tokens shown short.

Python's `int()` accepts any Unicode decimal digit ('١٨' is 18), underscores ('1_7') and
surrounding whitespace, and refuses more than 4,300 digits with a ValueError; `str.isdigit()`
is true for '²', which `int()` then refuses. Every number a user gives countlo goes through
`whole_number` instead: ASCII digits only, length checked before converting.
"""

from __future__ import annotations

import re

from countlo.errors import CountloError
from countlo.i18n import _

ASCII_DIGITS = re.compile(r"[0-9]+\Z")
MAX_DIGITS = 18
"""Longest number accepted anywhere (sizes, counts, steps, seeds fit well within)."""

SHOWN = 40
"""A bad token longer than this is cut in messages (a 10 MB line is not echoed whole)."""


class BadNumberError(CountloError, ValueError):
    """Text that is not an ASCII whole number of reasonable length."""


def is_whole(text: str, max_digits: int = MAX_DIGITS) -> bool:
    """True for 1..max_digits ASCII digits and nothing else."""
    return len(text) <= max_digits and ASCII_DIGITS.match(text) is not None


def whole_number(text: str, what: str = "a number", max_digits: int = MAX_DIGITS) -> int:
    """The value of `text` as ASCII digits; BadNumberError (one line, token cut) otherwise."""
    if ASCII_DIGITS.match(text) is None:
        raise BadNumberError(_("{what} must be a whole number written with the digits 0-9, not {text}").format(
            what=what, text=shown(text)))
    if len(text) > max_digits:
        raise BadNumberError(_("{what} has {n} digits; at most {most} are accepted").format(
            what=what, n=len(text), most=max_digits))
    return int(text)


def is_integer(text: str, max_digits: int = MAX_DIGITS) -> bool:
    """True for an optional '-' then 1..max_digits ASCII digits (a rule offset like -1)."""
    return is_whole(text.removeprefix("-"), max_digits)


def shown(text: str, limit: int = SHOWN) -> str:
    """`repr(text)`, cut to about `limit` characters with the full length said."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def counted(n: int, noun: str) -> str:
    """'1 node', '2 nodes': the English of a board's repr and its pictures (whose font has no
    other script); what a person reads in their language is worded by countlo.ui.rulewords."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
