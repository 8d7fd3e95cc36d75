"""The `z3` engine: a record as pseudo-Boolean constraints for the z3 SMT solver.

One Bool per cell of the hidden start. An equation ``sum(b[plus]) - sum(b[minus]) == rhs`` is the
exact cardinality constraint ``#(true among b[plus]) + #(false among b[minus]) == rhs + |minus|``
(since -b = (1 - b) - 1), given to z3 as PbEq. Models are counted by blocking each one found.
The solver is z3's finite-domain one (logic QF_FD, SAT with native cardinality constraints): on
typical records about twice as slow as the default solver, but without its occasional second-long
stalls on records that leave most of the board free. (docs/MATH.md §12)
"""

from __future__ import annotations

from countlo.board import iter_bits, popcount
from countlo.hidden.record import Record
from countlo.hidden.result import Reconstruction, from_count

LIMIT = 2
"""Default number of models counted: enough to tell determined from ambiguous."""


def models(record: Record, limit: int = LIMIT) -> list[int]:
    """Up to `limit` distinct hidden starts consistent with `record`, found by z3."""
    import z3

    n = record.shape.cells
    cells = [z3.Bool(f"b{k}") for k in range(n)]
    solver = z3.SolverFor("QF_FD")
    for eq in record.equations():
        literals = [(cells[j], 1) for j in iter_bits(eq.plus)]
        literals += [(z3.Not(cells[j]), 1) for j in iter_bits(eq.minus)]
        solver.add(z3.PbEq(literals, eq.rhs + popcount(eq.minus)))
    found: list[int] = []
    while len(found) < limit and solver.check() == z3.sat:
        model = solver.model()
        board = sum(1 << k for k in range(n) if z3.is_true(model.eval(cells[k], model_completion=True)))
        found.append(board)
        solver.add(z3.Or([z3.Not(c) if board >> k & 1 else c for k, c in enumerate(cells)]))
    return found


def reconstruct(record: Record, limit: int = LIMIT) -> Reconstruction:
    """The record's reconstruction, counting z3 models up to `limit`."""
    found = models(record, limit)
    return from_count(len(found), found[0] if found else None, exact=len(found) < limit)
