"""What `countlo solve` prints in place of the grids of a board too large to show (the classic
path and the one under other rules say it alike)."""

from __future__ import annotations

from countlo.i18n import _

GRID_LIMIT = 64  # larger boards print a summary unless --full


def big_board_note(out: object) -> str:
    """What a solved board above GRID_LIMIT prints instead of its grids: where its press grid was
    saved (--out FILE), or how to see or save it."""
    if out is not None:  # the grid is saved already: do not suggest --out
        return _("(board larger than {n}x{n}: pass --full to print the grid and press list; the "
                 "press grid is in {file})").format(n=GRID_LIMIT, file=out)
    return _("(board larger than {n}x{n}: pass --full to print the grid and press list, or "
             "--out FILE to save the press grid)").format(n=GRID_LIMIT)
