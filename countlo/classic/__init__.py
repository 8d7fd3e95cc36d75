"""Classic (visible) Lights Out on any R x C board: one solution, all, the fewest presses, quiet
patterns and proofs of unsolvability, symmetry classes, pattern to pattern (docs/MATH.md §3-§7).

`countlo.classic.batch` (many boards at once as numpy matrices) and `countlo.classic.gf2`
(bit-packed GF(2) polynomials and linear algebra) are used by name where needed.
"""

from countlo.classic.classes import classes
from countlo.classic.minpress import all_solutions, fewest_presses, solution_count
from countlo.classic.solver import (
    Elimination,
    RowsSolution,
    Solution,
    elimination,
    inverse_columns,
    nullity,
    quiet_patterns,
    quiet_rows,
    solve,
    solve_rows,
    transform,
)

__all__ = [
    "Elimination",
    "RowsSolution",
    "Solution",
    "all_solutions",
    "classes",
    "elimination",
    "fewest_presses",
    "inverse_columns",
    "nullity",
    "quiet_patterns",
    "quiet_rows",
    "solution_count",
    "solve",
    "solve_rows",
    "transform",
]
