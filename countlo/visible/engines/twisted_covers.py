"""The twisted boards as quotients of a cover, for the ring chase (countlo.visible.engines.ring_chase,
docs/MATH.md §18.9).

The Moebius band and the Klein bottle are the cylinder and the torus of width 2C divided by the
flip tau_h(r, c) = (R-1-r, c+C); the projective plane is the torus of 2R x 2C divided by tau_h and
tau_v(r, c) = (r+R, C-1-c), whose rows are numbered from R/2 so that tau_h is r -> 2R-1-r there,
as on the other two. A pattern on the board is a pattern of the cover that the flips keep (`lift`
and `descend`); the ring chase imposes tau_h, which commutes with the ring, and tau_v, which turns
the ring round (x -> x^-1), is imposed by averaging and by `projective_nullity`'s count.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from countlo.board import Shape
from countlo.visible.engines import line_chase_mod_k

Arr = NDArray[np.int64]
TWISTED = ("moebius", "klein", "projective")  # left and right joined with a half twist


def rows(board: Shape) -> int:
    """The cover's rows: the board's, or twice them for the projective plane."""
    return 2 * board.rows if board.rules.topology == "projective" else board.rows


def mirrored(board: Shape) -> bool:
    """The flips must map the rule to itself for the cover's game to come down to the board's:
    upside down on the twisted boards, and left to right too on the projective plane."""
    offsets = sorted(board.rules.rule.offsets)
    top = board.rules.topology
    if top in TWISTED and offsets != sorted((-dr, dc) for dr, dc in offsets):
        return False
    return top != "projective" or (board.rows % 2 == 0 and offsets == sorted((dr, -dc) for dr, dc in offsets))


def lift(board: Shape, b: Arr) -> Arr:
    """b (R x C) as the pattern of the cover the flips keep: on the twisted boards the right half
    is b upside down (tau_h); on the projective plane the lower half is the upper one turned
    left to right (tau_v), and the rows start R/2 down."""
    top = board.rules.topology
    if top in ("moebius", "klein"):
        return np.concatenate([b, b[::-1]], axis=1)
    if top == "projective":
        r, c, low = board.rows, board.cols, board.rows // 2
        out = np.empty((2 * r, 2 * c), dtype=b.dtype)
        out[low:low + r, :c], out[low:low + r, c:] = b, b[::-1]
        turned = np.concatenate([b[:, ::-1], b[::-1, ::-1]], axis=1)  # rows R.. of the cover, tau_v's
        out[low + r:], out[:low] = turned[:r - low], turned[r - low:]
        return out
    return b


def _turn(board: Shape) -> tuple[Arr, Arr]:
    """On the projective plane's cover: the rows and columns tau_v takes the board's cells to."""
    r, c = board.rows, board.cols
    return (np.arange(r // 2, r // 2 + r) + r) % (2 * r), c - 1 - np.arange(c)


def descend(board: Shape, x: Arr, p: int) -> Arr:
    """A pattern of the cover that tau_h keeps, on the board: on the projective plane averaged
    with its tau_v image (every flip keeps the average, and A x too, A commuting with tau_v)."""
    top = board.rules.topology
    if top == "projective":
        r, c, low = board.rows, board.cols, board.rows // 2
        rows, cols = _turn(board)
        out: Arr = (x[low:low + r, :c] + x[rows[:, None], cols[None, :]]) * ((p + 1) // 2) % p
        return out
    return x[:, :board.cols]


def lights(board: Shape, cover: Arr, presses: Arr) -> Arr:
    """A x mod p on the board for presses x = descend(cover): countlo.visible.engines.line_chase_mod_k's, but on the
    projective plane read off the cover (the torus there, each offset a wrapped gather) at the
    board's cells and at their tau_v images, averaged as descend averages."""
    if board.rules.topology != "projective":
        return line_chase_mod_k.lights(board, presses)
    r, c, p = board.rows, board.cols, board.rules.states
    turn_rows, turn_cols = _turn(board)
    out = np.zeros((r, c), dtype=np.int64)
    for rows, cols in ((np.arange(r // 2, r // 2 + r), np.arange(c)), (turn_rows, turn_cols)):
        for dr, dc in board.rules.rule.offsets:
            out += cover[((rows - dr) % (2 * r))[:, None], ((cols - dc) % (2 * c))[None, :]]
    res: Arr = out * ((p + 1) // 2) % p
    return res


def projective_nullity(board: Shape, cover: int) -> int:
    """The board's nullity from `cover`, the nullity of the cover's game on the patterns tau_h
    keeps (a module V over the ring of 2C-wide rows, which tau_v maps to itself turning the ring
    round): V splits over the ring's fields K; tau_v pairs V_K with V_K* and, where K = K*, is
    semilinear for a nontrivial automorphism except where x = x^-1, at x = +1 and x = -1. So the
    patterns tau_v keeps number half of V outside x = +-1, plus those of V_{+1} and V_{-1}, which
    are the one-column games along the rows, counted directly (docs/MATH.md §18.9)."""
    p = board.rules.states
    edge, keep = 0, 0
    for eps in (1, -1):
        d, f = _column_game(board, eps, p)
        edge, keep = edge + d, keep + f
    assert (cover - edge) % 2 == 0, "the flips' count is not whole: the maths is wrong"
    return (cover - edge) // 2 + keep


def _column_game(board: Shape, eps: int, p: int) -> tuple[int, int]:
    """(dim V_eps, dim of what tau_v keeps of it) at x = eps: patterns g(r) eps^c on the 2R rows
    with sum_e m_e(eps) g(r+e) = 0 round the rows, g(2R-1-r) = eps^C g(r) (tau_h), and for the
    second count g(r+R) = eps^(C-1) g(r) (tau_v)."""
    n, cols = 2 * board.rows, board.cols
    coef: dict[int, int] = {}
    for dr, dc in board.rules.rule.offsets:
        coef[-dr] = (coef.get(-dr, 0) + eps ** (dc % 2)) % p
    coef = {e: v for e, v in coef.items() if v}
    alpha, beta = eps ** (cols % 2), eps ** ((cols - 1) % 2)
    if not coef:  # every g: rows pair under tau_h (R of them), and fall in fours under both
        return board.rows, board.rows // 2
    es = sorted(coef)
    top, look = es[-1], es[-1] - es[0]
    if not look:
        return 0, 0
    inv = pow(coef[top], -1, p)
    seq = np.zeros((look, n + look), dtype=np.int64)  # the sequences from each unit start
    seq[np.arange(look), np.arange(look)] = 1
    for j in range(look, n + look):
        acc = np.zeros(look, dtype=np.int64)
        for e in es[:-1]:
            acc += coef[e] * seq[:, j - top + e]
        seq[:, j] = (-inv * acc) % p
    periodic = _null_rows((seq[:, n:] - seq[:, :look]) % p, p)  # starts whose sequence closes round
    basis = (periodic @ seq[:, :n]) % p
    flip_h = (basis[:, ::-1] - alpha * basis) % p
    flip_v = (np.roll(basis, -board.rows, axis=1) - beta * basis) % p
    d = len(basis) - _rank(flip_h, p)
    f = len(basis) - _rank(np.concatenate([flip_h, flip_v], axis=1), p)
    return d, f


def _rank(m: Arr, p: int) -> int:
    return len(m) - len(_null_rows(m, p))


def _null_rows(m: Arr, p: int) -> Arr:
    """A basis of {c : c m = 0 mod p} as rows (m small: a few rows)."""
    rows_, cols = m.shape
    aug = np.concatenate([m % p, np.eye(rows_, dtype=np.int64)], axis=1)
    rank = 0
    for col in range(cols):
        piv = next((i for i in range(rank, rows_) if aug[i, col]), None)
        if piv is None:
            continue
        aug[[rank, piv]] = aug[[piv, rank]]
        aug[rank] = aug[rank] * pow(int(aug[rank, col]), -1, p) % p
        for i in range(rows_):
            if i != rank and aug[i, col]:
                aug[i] = (aug[i] - aug[i, col] * aug[rank]) % p
        rank += 1
    out: Arr = aug[rank:, cols:]
    return out
