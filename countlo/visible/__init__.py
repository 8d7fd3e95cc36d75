"""The visible game: Lights Out with the lights shown, on any board and under any rules.

One module per question a user asks (`solutions`, `fewest`, `classes`, `generate`, `practice`,
...); the methods that answer them in `engines/`, one module per method; arithmetic with no
Lights Out in it in `algebra/` (docs/ARCHITECTURE.md). Re-exported here: the classic game's
bitset answers (docs/MATH.md §3-§7). The question modules `solutions` and `classes` are imported
by name, so their functions are not re-exported under the same names.
"""

from countlo.visible.engines.polynomial_chase import (
    Elimination,
    RowsSolution,
    Solution,
    elimination,
    inverse_columns,
    nullity,
    quiet_patterns,
    quiet_rows,
    solve_rows,
    transform,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.visible.bitsets import all_solutions, fewest_presses, solution_count


def __getattr__(name: str) -> object:
    """The bitset answers load on first use: importing an engine must not load the question
    modules behind them (start-up: bench/bench_startup.py)."""
    if name in ("all_solutions", "fewest_presses", "solution_count"):
        from countlo.visible import bitsets  # noqa: PLC0415 (loaded on first use)

        return getattr(bitsets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Elimination",
    "RowsSolution",
    "Solution",
    "all_solutions",
    "elimination",
    "fewest_presses",
    "inverse_columns",
    "nullity",
    "quiet_patterns",
    "quiet_rows",
    "solution_count",
    "solve_rows",
    "transform",
]
