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
from countlo.visible.fewest import all_solutions, fewest_presses, solution_count

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
