"""The strategies by the names users type, with one line of help each.

Kept apart from countlo.play.strategies.registry (which builds them and imports numpy) so the command
line can offer the names as `choices` without loading any strategy.
"""

from __future__ import annotations

from enum import Enum


class StrategyName(str, Enum):
    """The strategies a user can choose; `adaptive` is the default."""

    ADAPTIVE = "adaptive"
    ADAPTIVE_V1 = "adaptive-v1"
    ENTROPY = "entropy"
    FIXED = "fixed"
    GREEDY = "greedy"
    MANUAL = "manual"
    OPTIMAL = "optimal"
    RESTORE = "restore"
    SEQUENTIAL = "sequential"


HELP: dict[StrategyName, str] = {
    StrategyName.ADAPTIVE: "clicks likely needed anyway that tell the most, completing the parity "
    "supports that pin press-set cells early; searches the end game exactly",
    StrategyName.ADAPTIVE_V1: "the adaptive strategy without parity pins or the exact end game (baseline)",
    StrategyName.ENTROPY: "the most informative click only (a baseline)",
    StrategyName.FIXED: "a fixed routine that determines every board (24 clicks on 6x6)",
    StrategyName.GREEDY: "max P(press needed) + 0.5 * entropy of the next count",
    StrategyName.MANUAL: "the player picks every probe",
    StrategyName.OPTIMAL: "the exact fewest-expected-clicks policy (boards of at most 10 cells)",
    StrategyName.RESTORE: "click, read, click back: 2 probes per cell in reading order",
    StrategyName.SEQUENTIAL: "click every cell once in reading order",
}


def strategy_names() -> list[str]:
    """The strategy names, `adaptive` first (argparse `choices` and help text)."""
    return [s.value for s in StrategyName]
