"""The most presses any solvable start of a board needs, and a start needing them.

A start is solvable iff it is A x for some press set x, and its fewest presses are then the
lightest member of x plus the quiet patterns, so the most presses over all starts is the
covering radius of the quiet patterns (docs/MATH.md §17, §23): the classic search for two states
(countlo.visible.algebra.covering_radius: exact on small boards, bounds beyond), every press
vector listed for more states (docs/MATH.md §24).
"""

from __future__ import annotations

from dataclasses import dataclass

from countlo.board import Shape, Vector, bits, values
from countlo.errors import BadSizeError
from countlo.graph import Board, button_count
from countlo.i18n import _
from countlo.visible import solutions
from countlo.visible.algebra import covering_radius
from countlo.visible.engines import polynomial_chase

MOST_BRUTE = 1 << 20  # with k > 2 every press vector is listed: at most this many


@dataclass(frozen=True)
class Hardest:
    """lower <= the most presses any solvable start needs <= upper; `presses` (None if no start
    was proven) is a fewest-press solution of a start needing `lower`."""

    presses: Vector | None
    lower: int
    upper: int
    method: str

    @property
    def exact(self) -> bool:
        return self.lower >= self.upper


def hardest(board: Board, *, time_limit: float = 10.0) -> Hardest:
    """The covering radius of the quiet patterns and a coset leader attaining it: the classic
    search (exact on small boards, bounds beyond) for two states; every press vector listed for
    more (boards with at most MOST_BRUTE of them)."""
    k, n = solutions.states(board), button_count(board)  # n: the press variables (a press map's buttons)
    if k == 2:
        if isinstance(board, Shape) and board.rules.classic:  # the quiet patterns stay bitsets
            quiet = polynomial_chase.quiet_patterns(board)
        else:
            quiet = [bits(g) for g, _ in solutions.quiet(board)]
        h = covering_radius.hardest(quiet, n, time_limit=time_limit)
        return Hardest(None if h.presses is None else values(h.presses, n), h.need, h.upper,
                       h.method)
    if k ** n > MOST_BRUTE:
        raise BadSizeError(_("--most with {k} states lists every press vector: at most {most} of "
                             "them ({k}^{n} here)").format(k=k, most=MOST_BRUTE, n=n))
    if board.cells > n:
        return _brute_keyed(board, k, n)
    return _brute(board, k, n)


def _press_rows(board: Board, k: int, n: int) -> object:
    """A's transpose as numpy: row j is what a press of button j adds to each light."""
    import numpy as np

    a = np.zeros((n, board.cells), dtype=np.int64)
    for j, col in enumerate(solutions.columns(board)):
        for i, t in col.items():
            a[j, i] = t % k
    return a


def _brute_keyed(board: Board, k: int, n: int) -> Hardest:
    """_brute for more lights than buttons (a press map): k^lights keys would not fit, so each
    start is keyed by its bytes; at most k^buttons of them are reached."""
    import numpy as np

    a = _press_rows(board, k, n)
    assert isinstance(a, np.ndarray)
    least: dict[bytes, tuple[int, int]] = {}
    step = 1 << 14
    powers = np.array([k ** i for i in range(n)], dtype=np.int64)
    for lo in range(0, k ** n, step):
        idx = np.arange(lo, min(lo + step, k ** n), dtype=np.int64)
        x = (idx[:, None] // powers[None, :]) % k
        starts = ((x @ a) % k).astype(np.uint8)
        for key, w, i in zip(map(bytes, starts), x.sum(axis=1).tolist(), idx.tolist()):
            if key not in least or w < least[key][0]:
                least[key] = (w, i)
    worst, arg = max(least.values())
    presses = [arg // k ** j % k for j in range(n)]
    return Hardest(presses, worst, worst, f"all {k}^{n} press vectors")


def _brute(board: Board, k: int, n: int) -> Hardest:
    """Every press vector x once: its start A x keyed as a number, the least press count per key;
    the largest of those minima is the answer (docs/MATH.md §24). The keys are k^lights, at
    most k^buttons here."""
    import numpy as np

    a = _press_rows(board, k, n)  # a[j] = what a click on j adds
    assert isinstance(a, np.ndarray)
    m = board.cells
    powers = np.array([k ** i for i in range(n)], dtype=np.int64)
    light_powers = np.array([k ** i for i in range(m)], dtype=np.int64)
    least = np.full(k ** m, n * k, dtype=np.int64)
    arg = np.zeros(k ** m, dtype=np.int64)
    step = 1 << 14
    for lo in range(0, k ** n, step):
        idx = np.arange(lo, min(lo + step, k ** n), dtype=np.int64)
        x = (idx[:, None] // powers[None, :]) % k  # press vector of index idx
        key = ((x @ a) % k) @ light_powers
        w = x.sum(axis=1)
        order = np.lexsort((w, key))  # per key, the lightest first
        key, w, idx = key[order], w[order], idx[order]
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        key, w, idx = key[first], w[first], idx[first]
        better = w < least[key]
        least[key[better]] = w[better]
        arg[key[better]] = idx[better]
    reached = least < n * k
    worst = int(np.max(np.where(reached, least, -1)))  # the all-dark start is reached: never -1
    i = int(np.argmax(np.where(reached, least, -1)))
    presses = [int(arg[i]) // k ** j % k for j in range(n)]
    return Hardest(presses, worst, worst, f"all {k}^{n} press vectors")
