"""Option values as argparse types: ASCII whole numbers and finite seconds, checked and bounded.

`type=int` would take '١٨' and '1_7' and `type=float` takes 'inf' and 'nan'; each of these types
refuses them with one line naming the option's value (argparse adds the option's name).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from countlo.i18n import _
from countlo.tokens import MAX_DIGITS, shown

_INTEGER = re.compile(r"-?[0-9]+\Z")
_DECIMAL = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?\Z|[0-9]+\.\Z")


def integer(text: str) -> int:
    """A whole number, possibly negative (a seed), in ASCII digits."""
    if not _INTEGER.match(text):
        raise argparse.ArgumentTypeError(_("expected a whole number in the digits 0-9, not {text}").format(
            text=shown(text)))
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(_("expected at most {most} digits, not {n}").format(
            most=MAX_DIGITS, n=len(text.lstrip("-"))))
    return int(text)


LARGEST = 10**MAX_DIGITS - 1  # the largest number of MAX_DIGITS digits (seeds)


def bounded(low: int, high: int) -> Callable[[str], int]:
    """The type of a whole number in low..high."""

    def whole(text: str) -> int:
        n = integer(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(_("expected {low}..{high}, not {n}").format(low=low, high=high, n=n))
        return n

    whole.__name__ = f"whole number {low}..{high}"
    return whole


def decimal(text: str, what: str, low: float, high: float, open_low: bool = False) -> float:
    """A finite decimal number like 0.5, 5 or 1e-3 in [low, high] (or (low, high] if open_low)."""
    if len(text) > 32 or not _DECIMAL.match(text):
        raise argparse.ArgumentTypeError(_("expected {what}, not {text}").format(what=what, text=shown(text)))
    x = float(text)
    if not math.isfinite(x) or x > high or x < low or (open_low and x == low):
        message = _("must be above {low} up to {high}, not {text}") if open_low else \
            _("must be from {low} up to {high}, not {text}")
        raise argparse.ArgumentTypeError(message.format(low=f"{low:g}", high=f"{high:g}", text=text))
    return x
