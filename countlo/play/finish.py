"""The finishing plan: a press set in reading order, each click with the count it should show.

Clicks commute over GF(2), so the order is free; reading order is easy to follow. Clicking k
flips N(k), so each predicted count is the popcount of the lights after that click, and every
finishing click doubles as a check on the counts before it (docs/MATH.md §2, §14).
"""

from __future__ import annotations

from typing import NamedTuple

from countlo.board import iter_bits, press_masks
from countlo.countboard import CountBoard


class FinishStep(NamedTuple):
    """One finishing click and the count it should show."""

    cell: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count, on purpose


Plan = tuple[FinishStep, ...]


def finish_plan(shape: CountBoard, lights: int, presses: int) -> Plan:
    """The clicks of `presses` in reading order, each with the count after it."""
    masks, out = press_masks(shape), []
    for k in iter_bits(presses):
        lights ^= masks[k]
        out.append(FinishStep(k, lights.bit_count()))
    return tuple(out)
