"""Benchmark: two-state Lights Out on graphs of 10,000 nodes, countlo against M4RI side by side.

Run from the repository root:  python bench/bench_graphs.py [--nodes 10000] [--repeats 3] [--m4ri PATH]
or write one of the graphs as a graph file:  python bench/bench_graphs.py --write FILE --kind grid

For each graph (a random graph of mean degree 5, the 100 x 100 grid graph, a random graph of mean
degree 20; rules sigma+ and sigma) one random start is solved from cold by countlo.visible.solutions.solve
(the greedy chase and the bit-packed elimination of countlo.visible.engines.graph_chase, docs/MATH.md §18.5),
and the same system [A | b] is brought to reduced echelon form by M4RI's mzd_echelonize (the
reference C library for dense GF(2) matrices, called through ctypes), in the same run, the
repeats of the two taking turns so that both see the same load. Both
columns are CPU time (time.process_time), median of the repeats, and both include building the
matrix from the edge list (countlo: the neighbourhoods; M4RI: the dense bit matrix, filled from
numpy). M4RI's rank of [A | b] is checked against countlo's answer (n - nullity, plus one when
unsolvable).

M4RI is not a dependency of countlo. The bench finds it in the `passagemath-m4ri-m4rie` wheel
(`pip install --no-deps passagemath-m4ri-m4rie`: the wheel bundles libm4ri), in a system libm4ri
(Debian: `apt-get install libm4ri-dev`), or at --m4ri PATH; without it the M4RI columns are skipped.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.graph import Graph
from countlo.visible import solutions
from countlo.visible.engines import graph_chase

INSTALL = ("M4RI not found: `pip install --no-deps passagemath-m4ri-m4rie` (its wheel bundles libm4ri), "
           "or `apt-get install libm4ri-dev`, or pass --m4ri PATH; the M4RI columns are skipped")


# --- the graphs ----------------------------------------------------------------------------------


def random_edges(n: int, degree: float, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    edges: set[tuple[int, int]] = set()
    while len(edges) < int(n * degree / 2):
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            edges.add((min(i, j), max(i, j)))
    return sorted(edges)


def grid_edges(side: int) -> list[tuple[int, int]]:
    out = []
    for r in range(side):
        for c in range(side):
            v = r * side + c
            if c + 1 < side:
                out.append((v, v + 1))
            if r + 1 < side:
                out.append((v, v + side))
    return out


def kinds(n: int, dense: float = 20) -> dict[str, tuple[int, list[tuple[int, int]]]]:
    side = round(n ** 0.5)
    return {
        "random": (n, random_edges(n, 5, 1)),
        "grid": (side * side, grid_edges(side)),
        "dense": (n, random_edges(n, dense, 2)),
    }


LABELS = {"random": "random, mean degree 5", "grid": "grid graph", "dense": "random, mean degree 20"}


def write_graph(path: str, n: int, edges: list[tuple[int, int]]) -> None:
    """The graph file format of docs/rules.md: a `nodes:` line, then one edge per line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("nodes: " + " ".join(f"n{i}" for i in range(n)) + "\n")
        f.writelines(f"n{i} n{j}\n" for i, j in edges)


# --- M4RI through ctypes ----------------------------------------------------------------------


def find_m4ri(path: str | None) -> str | None:
    if path:
        return path
    spec = importlib.util.find_spec("passagemath_m4ri_m4rie")
    if spec is not None and spec.submodule_search_locations:
        libs = Path(next(iter(spec.submodule_search_locations))).parent / "passagemath_m4ri_m4rie.libs"
        found = sorted(libs.glob("libm4ri-*.so*"))
        if found:
            return str(found[0])
    return ctypes.util.find_library("m4ri")


class M4RI:
    """The few libm4ri calls needed: mzd_init, mzd_free, mzd_echelonize; rows are filled in place
    through the matrix's data pointer (m4ri 2023 on: row i at data + i * rowstride words), a
    layout that is checked against mzd_from_str before any timing."""

    def __init__(self, path: str):
        lib = ctypes.CDLL(path)
        lib.mzd_init.restype = ctypes.c_void_p
        lib.mzd_init.argtypes = [ctypes.c_int, ctypes.c_int]
        lib.mzd_free.argtypes = [ctypes.c_void_p]
        lib.mzd_echelonize.restype = ctypes.c_int
        lib.mzd_echelonize.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.mzd_from_str.restype = ctypes.c_void_p
        lib.mzd_from_str.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p]
        lib.mzd_equal.restype = ctypes.c_int
        lib.mzd_equal.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.lib = lib
        self.path = path
        self._check_layout()

    def _fields(self, m: Any) -> tuple[int, int, int, int, int]:
        """(nrows, ncols, width, rowstride, data) of an mzd_t: two ints, two 64-bit word counts,
        the flags and padding, the high bitmask, the data pointer (64 bytes)."""
        raw = ctypes.string_at(m, 64)
        nrows, ncols = np.frombuffer(raw[:8], dtype="<i4").tolist()
        width, rowstride = np.frombuffer(raw[8:24], dtype="<i8").tolist()
        data = int(np.frombuffer(raw[56:64], dtype="<u8")[0])
        return nrows, ncols, width, rowstride, data

    def matrix(self, rows: np.ndarray, ncols: int) -> Any:
        """A new mzd_t holding the packed rows (bit j of row i at word j // 64, bit j % 64)."""
        m = self.lib.mzd_init(len(rows), ncols)
        nrows, cols, width, rowstride, data = self._fields(m)
        if (nrows, cols) != (len(rows), ncols) or width != rows.shape[1] or rowstride < width:
            self.lib.mzd_free(m)
            raise RuntimeError(f"unexpected mzd_t layout in {self.path}")
        buf = np.ctypeslib.as_array((ctypes.c_uint64 * (nrows * rowstride)).from_address(data))
        buf.reshape(nrows, rowstride)[:, :width] = rows
        return m

    def _check_layout(self) -> None:
        rng = np.random.default_rng(1)
        for m, n in [(3, 70), (65, 130), (7, 64)]:
            dense = rng.integers(0, 2, size=(m, n), dtype=np.uint8)
            packed = np.packbits(dense, axis=1, bitorder="little")
            words = (n + 63) // 64
            padded = np.zeros((m, 8 * words), dtype=np.uint8)
            padded[:, :packed.shape[1]] = packed
            ours = self.matrix(padded.view("<u8").astype(np.uint64), n)
            theirs = self.lib.mzd_from_str(m, n, "".join(map(str, dense.reshape(-1).tolist())).encode())
            same = self.lib.mzd_equal(ours, theirs)
            self.lib.mzd_free(ours)
            self.lib.mzd_free(theirs)
            if not same:
                raise RuntimeError(f"unexpected mzd_t layout in {self.path}")

    def echelonize(self, m: Any) -> int:
        rank: int = self.lib.mzd_echelonize(m, 1)  # full = 1: reduced echelon form
        return rank

    def free(self, m: Any) -> None:
        self.lib.mzd_free(m)


def dense_system(n: int, edges: list[tuple[int, int]], rule: str, b: list[int]) -> np.ndarray:
    """[A | b] as packed uint64 rows, built from the edge list with numpy."""
    words = (n + 1 + 63) // 64
    e = np.array(edges, dtype=np.int64).reshape(-1, 2)
    rows = np.concatenate([e[:, 0], e[:, 1]])
    cols = np.concatenate([e[:, 1], e[:, 0]])
    if rule == "sigma+":
        rows = np.concatenate([rows, np.arange(n)])
        cols = np.concatenate([cols, np.arange(n)])
    bs = np.flatnonzero(np.array(b, dtype=np.uint8))
    rows = np.concatenate([rows, bs])
    cols = np.concatenate([cols, np.full(len(bs), n)])
    out = np.zeros(n * words, dtype=np.uint64)
    np.bitwise_or.at(out, rows * words + (cols >> 6), np.left_shift(np.uint64(1), (cols & 63).astype(np.uint64)))
    return out.reshape(n, words)


# --- timing ------------------------------------------------------------------------------------


def cpu(fn: Callable[..., Any], *args: Any, repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.process_time()
        out = fn(*args)
        times.append(time.process_time() - t)
    return statistics.median(times), out


def countlo_solve(g: Graph, start: list[int]) -> solutions.Outcome:
    graph_chase.plan.cache_clear()
    fresh = Graph(g.nodes, g.edges, g.rule, g.states)  # a new object: the adjacency is rebuilt from the edges too
    return solutions.solve(fresh, start)


def m4ri_solve(m4ri: M4RI, n: int, edges: list[tuple[int, int]], rule: str, b: list[int]) -> int:
    mat = m4ri.matrix(dense_system(n, edges, rule, b), n + 1)
    try:
        return m4ri.echelonize(mat)
    finally:
        m4ri.free(mat)


def m4ri_echelon_only(m4ri: M4RI, packed: np.ndarray, n: int) -> float:
    mat = m4ri.matrix(packed, n + 1)
    t = time.process_time()
    m4ri.echelonize(mat)
    spent = time.process_time() - t
    m4ri.free(mat)
    return spent


def fmt(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--m4ri", help="path of libm4ri (default: the passagemath wheel, then the system)")
    ap.add_argument("--kinds", default="random,grid,dense")
    ap.add_argument("--rules", default="sigma+,sigma")
    ap.add_argument("--write", metavar="FILE", help="write the graph of --kind as a graph file and stop")
    ap.add_argument("--kind", default="random", choices=sorted(LABELS))
    ap.add_argument("--dense-degree", type=float, default=20, help="mean degree of the dense random graph")
    args = ap.parse_args()
    graphs = kinds(args.nodes, args.dense_degree)
    LABELS["dense"] = f"random, mean degree {args.dense_degree:g}"
    if args.write:
        n, edges = graphs[args.kind]
        write_graph(args.write, n, edges)
        print(f"wrote {args.write}: {LABELS[args.kind]}, {n} nodes, {len(edges)} edges")
        return 0

    m4ri: M4RI | None = None
    path = find_m4ri(args.m4ri)
    if path is None:
        print(INSTALL)
    else:
        try:
            m4ri = M4RI(path)
        except (OSError, AttributeError, RuntimeError) as e:
            print(f"M4RI at {path} cannot be used ({e}); the M4RI columns are skipped")
        else:
            print(f"M4RI: {path}")
    print(f"CPU time, median of {args.repeats} (turns taken); both columns include building the matrix from the edge "
          f"list; load average {os.getloadavg()[0]:.2f} at the start")
    print("| graph | nodes | edges | rule | free variables | countlo | M4RI | M4RI echelon alone | M4RI / countlo |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for kind in args.kinds.split(","):
        n, edges = graphs[kind]
        names = tuple(f"n{i}" for i in range(n))
        for rule in args.rules.split(","):
            g = Graph(names, tuple(edges), rule, 2)
            rng = random.Random(n)
            start = [rng.randint(0, 1) for _ in range(n)]
            # the repeats take turns (countlo, M4RI, M4RI's echelon alone), so that both columns see
            # the same load on a shared machine
            ours_t: list[float] = []
            theirs_t: list[float] = []
            alone_t: list[float] = []
            out: Any = None
            rank = -1
            for _ in range(args.repeats):
                t, out = cpu(countlo_solve, g, start, repeats=1)
                ours_t.append(t)
                if m4ri is not None:
                    t, rank = cpu(m4ri_solve, m4ri, n, edges, rule, start, repeats=1)
                    theirs_t.append(t)
                    alone_t.append(m4ri_echelon_only(m4ri, dense_system(n, edges, rule, start), n))
            ours = statistics.median(ours_t)
            free = graph_chase.plan(g).f
            cells = [LABELS[kind], str(n), str(len(edges)), rule, str(free), fmt(ours)]
            if m4ri is not None:
                theirs, alone = statistics.median(theirs_t), statistics.median(alone_t)
                want = n - out.nullity + (0 if out.solvable else 1)
                if rank != want:
                    print(f"M4RI's rank {rank} disagrees with countlo's answer ({want})", file=sys.stderr)
                    return 1
                cells += [fmt(theirs), fmt(alone), f"{theirs / ours:.2f}"]
            else:
                cells += ["-", "-", "-"]
            print("| " + " | ".join(cells) + " |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
