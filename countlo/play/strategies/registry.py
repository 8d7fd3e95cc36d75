"""Building a strategy from its name (countlo.play.strategies.names): one factory per StrategyName."""

from __future__ import annotations

from collections.abc import Callable

from countlo.board import Shape
from countlo.countboard import CountBoard
from countlo.errors import CountloError
from countlo.i18n import _
from countlo.play.strategies.adaptive import Adaptive, adaptive_v1
from countlo.play.strategies.base import EntropyOnly, Fixed, Greedy, Manual, Restore, Sequential, Strategy
from countlo.play.strategies.names import HELP, StrategyName, strategy_names
from countlo.play.strategies.optimal import Optimal


class UnknownStrategyError(CountloError, ValueError):
    """A strategy name that is not one of StrategyName."""


_FACTORIES: dict[StrategyName, Callable[[CountBoard], Strategy]] = {  # and FIXED, for grids
    StrategyName.ADAPTIVE: Adaptive,
    StrategyName.ADAPTIVE_V1: adaptive_v1,
    StrategyName.ENTROPY: EntropyOnly,
    StrategyName.GREEDY: Greedy,
    StrategyName.MANUAL: Manual,
    StrategyName.OPTIMAL: Optimal,
    StrategyName.RESTORE: Restore,
    StrategyName.SEQUENTIAL: Sequential,
}


def strategy_of(name: StrategyName | str) -> StrategyName:
    """The StrategyName for `name`; UnknownStrategyError lists the choices."""
    try:
        return StrategyName(name.strip().lower() if isinstance(name, str) else name)
    except ValueError:
        raise UnknownStrategyError(
            f"unknown strategy {str(name)!r}: choose one of {', '.join(strategy_names())}"
        ) from None


def strategy_help(name: StrategyName | str) -> str:
    """One line describing strategy `name`."""
    return HELP[strategy_of(name)]


GRID_ONLY = frozenset({StrategyName.FIXED})  # a routine found along rows, for grids only


class GridOnlyStrategyError(CountloError, ValueError):
    """A strategy that needs rows and columns, asked for on a press board."""


def make_strategy(name: StrategyName | str, shape: CountBoard) -> Strategy:
    """A fresh strategy `name` for boards of `shape`; a grid-only strategy (GRID_ONLY) on a press
    board is refused in one line (GridOnlyStrategyError, exit 2)."""
    chosen = strategy_of(name)
    if chosen in GRID_ONLY:
        if not isinstance(shape, Shape):
            raise GridOnlyStrategyError(_("strategy {name} is for grids (its routine runs along rows), not {board}; "
                                          "use adaptive").format(name=chosen.value, board=shape))
        return Fixed(shape)
    return _FACTORIES[chosen](shape)
