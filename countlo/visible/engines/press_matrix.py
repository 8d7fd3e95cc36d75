"""Press maps and directed graphs as one dense matrix: A (lights x buttons, possibly not square)
eliminated whole, and A's transpose for the proof (docs/MATH.md §27).

A press map has no neighbourhood to chase along (a button may change any lights), so from
choice.FAST_ENTRIES entries the matrix is eliminated as it is: two states by bit-packed Gauss-Jordan
with the four Russians (countlo.visible.algebra.bitpacked), more states by dense LU over each
prime power of k (countlo.visible.algebra.dense_lu). Unsolvable starts are proved by a w with
w A = 0 and w.b != 0, found among the generators of the kernel of A's transpose (the left
kernel): if every generator had w.b = 0 so would every w, and Z_k is self-injective, so b would
be in the image of A. Smaller maps keep the reference chase, which gives the same answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.board import Vector
from countlo.graph import Board, Graph
from countlo.pressmap import PressMap
from countlo.visible.algebra import bitpacked, dense_lu
from countlo.visible.engines import engine, reference_chase
from countlo.visible.engines.engine import Outcome


def takes(board: Board) -> bool:
    """The boards this engine is for: press maps and directed graphs (rows and columns differ)."""
    return isinstance(board, PressMap) or (isinstance(board, Graph) and bool(board.arcs))


def dense(board: Board, dtype: type[np.integer[Any]] = np.int64) -> NDArray[np.integer[Any]]:
    """A as a (lights, buttons) array of residues mod k (two states pack from bytes: uint8)."""
    if isinstance(board, PressMap):
        engine.check_size(board)
        entries = board.changes  # (light, amount) pairs, amounts 1..k-1, no light twice a button
    else:
        entries = tuple(tuple(c.items()) for c in reference_chase.columns(board))
    sizes = [len(c) for c in entries]
    held = sum(sizes)
    pairs = np.fromiter(itertools.chain.from_iterable(itertools.chain.from_iterable(entries)),
                        dtype=np.int64, count=2 * held).reshape(held, 2)
    a = np.zeros((board.cells, len(entries)), dtype=dtype)
    a[pairs[:, 0], np.repeat(np.arange(len(entries)), sizes)] = pairs[:, 1]  # one entry per (light, button)
    return a


class Gf2:
    """A x = b over GF(2), A's rows bit-packed; the transpose's system made when a proof is needed."""

    def __init__(self, a: NDArray[np.integer[Any]]) -> None:
        self.a = a
        self.system = bitpacked.System(pack(a), a.shape[1])
        self.left: bitpacked.System | None = None

    def solve(self, b: Sequence[int]) -> Vector | None:
        y = self.system.particular(np.asarray(b, dtype=np.uint8) & np.uint8(1))
        return None if y is None else [int(v) for v in y.tolist()]

    def quiet(self, system: bitpacked.System | None = None) -> list[Vector]:
        s = self.system if system is None else system
        d = s.nullity
        if not d:
            return []
        raw = s.kernel().view(np.uint8)  # (unknowns, bytes): bit q of row i is entry i of vector q
        bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :d]
        out: list[Vector] = bits.T.astype(np.int64).tolist()
        return out

    def invariants(self) -> list[Vector]:
        if self.left is None:
            self.left = bitpacked.System(pack(np.ascontiguousarray(self.a.T)), self.a.shape[0])
        return self.quiet(self.left)

    @property
    def orders(self) -> tuple[int, ...]:
        return (2,) * self.system.nullity


class Zk:
    """A x = b over Z_k by dense LU (any k; the factor 2 bit-packed inside dense_lu)."""

    def __init__(self, a: NDArray[np.integer[Any]], k: int) -> None:
        self.a, self.k = a, k
        self.system = dense_lu.System(a, k)
        self.left: dense_lu.System | None = None

    def solve(self, b: Sequence[int]) -> Vector | None:
        y = self.system.solve(b)
        return None if y is None else [int(v) for v in y.tolist()]

    def quiet(self) -> list[Vector]:
        out: list[Vector] = self.system.gens.T.tolist()
        return out

    def invariants(self) -> list[Vector]:
        if self.left is None:
            self.left = dense_lu.System(np.ascontiguousarray(self.a.T), self.k)
        out: list[Vector] = self.left.gens.T.tolist()
        return out

    @property
    def orders(self) -> tuple[int, ...]:
        return tuple(self.system.orders)


def pack(a: NDArray[np.integer[Any]]) -> NDArray[np.uint64]:
    """0/1 rows as uint64 words, bit j of a row = entry j (bitpacked's layout)."""
    rows, cols = a.shape
    raw = np.packbits(a.astype(np.uint8) & np.uint8(1), axis=1, bitorder="little")
    out = np.zeros((rows, bitpacked.words(cols) * 8), dtype=np.uint8)
    out[:, :raw.shape[1]] = raw
    return out.view(np.uint64)


class _Factored:
    """The factored systems of the last few boards, looked up by the board object first and then
    by equality: hashing a big press map (every entry) on each question would cost more than
    the answer."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: list[tuple[Board, Gf2 | Zk]] = []

    def __call__(self, board: Board) -> Gf2 | Zk:
        for b, f in self.kept:
            if b is board:
                return f
        for b, f in self.kept:
            if b == board:
                return f
        k = engine.states(board)
        made: Gf2 | Zk = Gf2(dense(board, np.uint8)) if k == 2 else Zk(dense(board), k)
        self.kept = [*self.kept[1 - self.size:], (board, made)]
        return made


factored = _Factored(2)


class PressMatrix:
    """This engine as an Engine: press maps and directed graphs (the choice sends the big ones)."""

    def applies(self, board: Board) -> bool:
        return takes(board)

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        b, k = engine.goal(board, start, target), engine.states(board)
        f = factored(board)
        x = f.solve(b)
        if x is not None:
            return Outcome.of(x, None, f.orders, k)
        for w in f.invariants():
            if sum(a * c for a, c in zip(w, b)) % k:
                return Outcome.of(None, w, f.orders, k)
        raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")

    def orders(self, board: Board) -> tuple[int, ...]:
        return factored(board).orders

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        f = factored(board)
        return list(zip(f.quiet(), f.orders))[:count]

    def invariants(self, board: Board) -> list[Vector]:
        return factored(board).invariants()


ENGINE = PressMatrix()
