"""Benchmark: solving under other rules (countlo.visible.solutions) against full-matrix elimination.

Run from the repository root:  python bench/bench_rules.py [--quick] [--sizes 20,200,1000]
For each rule family and topology, one random n x n start is solved from cold (the chase plan is
rebuilt every repeat) and the CPU time (time.process_time) is reported as the median of the
repeats. Grids from 400 cells go through the chase a line at a time (countlo.visible.engines.line_chase,
docs/MATH.md §18.1, the projective plane folded into rings of two rows, §18.6; for k > 2
countlo.visible.engines.line_chase_mod_k, §18.4, folded the same way); the others through the chase one equation
at a time, which is timed only up to --general-max (it grows like n^3: about a minute at 1000); rowcol
is solved in closed form from its line sums (countlo.visible.engines.rowcol_closed_form, docs/MATH.md §18.3) at every size.
The torus with the plus rule goes through the circulant ring (countlo.visible.engines.circulant_torus, docs/MATH.md
§18.2) from 400 cells. A last table times it at 1000 x 1000 and --big (4095) x 4095 on random starts,
each from cold (the plan per board size rebuilt): circulant_torus.solve_rows on C-bit rows (the solver
itself), solutions.solve on 0/1 lists (what `countlo solve` calls, with the list conversions), and as
the baseline in the same run the line chase it replaced (line_chase.solve, one run at 4095).
A third table (--ring SIDE, 0 to skip) times the cylinder and the torus with 3 states at SIDE x SIDE
through the ring of circulant rows (countlo.visible.engines.ring_chase, docs/MATH.md §18.9, what solutions.solve
takes there) against the line chase over Z_k it replaced (line_chase_mod_k.solve, one run) on the same b.
The baseline of the main table, in the same run and on the same start, is Gauss-Jordan elimination over
GF(2) on the whole n^2 x n^2 press matrix with bitset rows (countlo.visible.algebra.gf2.echelon), the
method the known Python Lights Out tools use; for k > 2 it is the Smith-form solver of
countlo.visible.algebra.smith on the whole matrix.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line does (countlo.cli.threads): the
os.environ.setdefault("OMP_NUM_THREADS", "1")  # elimination's small products only lose CPU to a second thread

from countlo.board import Shape
from countlo.rules import Rules
from countlo.visible import solutions
from countlo.visible.algebra import gf2, smith
from countlo.visible.engines import (
    choice,
    circulant_torus,
    line_chase,
    line_chase_mod_k,
    reference_chase,
    ring_chase,
    rowcol_closed_form,
)


def cold(board: Shape, start: list[int]) -> None:
    for cache in (reference_chase.plan, reference_chase.rows, reference_chase.columns, reference_chase.transposed_plan, line_chase.plan,
                  line_chase.layout, rowcol_closed_form.structure, circulant_torus.plan, line_chase_mod_k.plan, line_chase_mod_k.zlayout,
                  line_chase_mod_k.zlayout_or_none, ring_chase._plan):
        cache.cache_clear()
    solutions.solve(board, start)


def cold_zk(module, board: Shape, b) -> None:
    """One module's solve of A x = b from cold (its plans rebuilt)."""
    for cache in (line_chase_mod_k.plan, line_chase_mod_k.zlayout, line_chase_mod_k.zlayout_or_none, ring_chase._plan):
        cache.cache_clear()
    module.solve(board, b)


def cold_rowchase(board: Shape, b: list[int]) -> None:
    line_chase.plan.cache_clear()
    line_chase.layout.cache_clear()
    line_chase.solve(board, b)


def cold_circulant(n: int, rows: list[int]) -> None:
    circulant_torus.plan.cache_clear()
    circulant_torus.solve_rows(n, n, rows)


def full_matrix(board: Shape, start: list[int]) -> None:
    k = board.rules.states
    n = board.cells
    rows: list[dict[int, int]] = [{} for _ in range(n)]
    for j in range(n):
        for i, t in board.hits(j).items():
            rows[i][j] = (rows[i].get(j, 0) + t) % k
    b = [(-v) % k for v in start]
    if k == 2:
        packed = []
        for i, row in enumerate(rows):
            v = b[i] & 1
            for j, t in row.items():
                if t & 1:
                    v |= 2 << j
            packed.append(v)
        gf2.echelon(packed)
    else:
        dense = [[row.get(j, 0) for j in range(n)] for row in rows]
        smith.solve(dense, b, n, k)


def cpu(fn, *args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn(*args)
        times.append(time.process_time() - t)
    return statistics.median(times)


GRIDS = ("plane", "cylinder", "torus", "moebius", "klein", "projective")  # projective: folded, §18.6
NAMED = ("plus", "x", "star", "ring", "knight")
CASES = [*((top, rule, 2) for top in GRIDS for rule in NAMED),
         ("plane", "rowcol", 2),
         *((top, rule, 3) for top in GRIDS for rule in NAMED),
         ("torus", "x", 4), ("plane", "plus", 6)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    ap.add_argument("--sizes", default="20,200,1000", help="board sides to time (n x n)")
    ap.add_argument("--baseline-max", type=int, default=40, help="largest side for the baseline")
    ap.add_argument("--general-max", type=int, default=200,
                    help="largest side timed through the chase one equation at a time")
    ap.add_argument("--big", type=int, default=4095, help="side of the big torus plus row (0: skip that table)")
    ap.add_argument("--big-repeats", type=int, default=7, help="random starts per size in that table")
    ap.add_argument("--ring", type=int, default=1000, help="side of the ring-chase table (0: skip it)")
    ap.add_argument("--topologies", default="", help="only these topologies (comma-separated)")
    ap.add_argument("--rules", default="", help="only these rules (comma-separated)")
    ap.add_argument("--states", default="", help="only these k (comma-separated)")
    ap.add_argument("--repeats", type=int, default=3, help="solves per case (the median is shown)")
    args = ap.parse_args()
    sizes = [10, 20] if args.quick else [int(s) for s in args.sizes.split(",")]
    repeats = 1 if args.quick else args.repeats
    rng = random.Random(0)
    print("| topology | rule | k | n x n | countlo CPU | full matrix CPU | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    only = set(args.topologies.split(",")) - {""}
    only_rules = set(args.rules.split(",")) - {""}
    only_k = {int(v) for v in args.states.split(",") if v}
    for top, rule, k in CASES:
        if (only and top not in only) or (only_rules and rule not in only_rules) or (only_k and k not in only_k):
            continue
        for n in sizes:
            board = Shape(n, n, Rules.make(top, rule, k))
            big = n * n >= choice.FAST_CELLS
            lines = big and (line_chase.applies(board) or line_chase_mod_k.applies(board) or ring_chase.applies(board))
            fast = lines or rowcol_closed_form.applies(board)
            ring = k == 2 and n * n >= choice.FAST_CELLS and circulant_torus.applies(board)
            if not fast and n > args.general_max:
                print(f"| {top} | {rule} | {k} | {n} | not timed (one equation at a time) | - | - |", flush=True)
                continue
            start = [rng.randrange(k) for _ in range(n * n)]
            ours = cpu(cold, board, start, repeats=repeats)
            base = None
            if n <= args.baseline_max and (k == 2 or n <= 20):
                base = cpu(full_matrix, board, start, repeats=1)
            b = "-" if base is None else f"{base * 1000:.1f} ms"
            ratio = "-" if base is None else f"{base / max(ours, 1e-9):.0f}x"
            path = (" (circulant)" if ring else " (line sums)" if rowcol_closed_form.applies(board)
                    else " (ring)" if big and ring_chase.applies(board) else " (lines)" if fast else "")
            print(f"| {top} | {rule} | {k} | {n} | {ours * 1000:.1f} ms{path} | {b} | {ratio} |",
                  flush=True)
    if args.big and not args.quick:
        print()
        print("| torus, plus, 2 | circulant_torus.solve_rows CPU | solutions.solve CPU | line_chase.solve CPU (baseline) | ratio |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for n in (1000, args.big):
            board = Shape(n, n, Rules.make("torus", "plus"))
            core, whole = [], []
            for _ in range(args.big_repeats):
                rows = circulant_torus.random_rows(n, n, rng)
                core.append(cpu(cold_circulant, n, rows, repeats=1))
                start = circulant_torus.to_list(rows, n)
                whole.append(cpu(cold, board, start, repeats=1))
            b = circulant_torus.to_list(circulant_torus.random_rows(n, n, rng), n)
            base = cpu(cold_rowchase, board, b, repeats=1 if n > 1000 else 3)
            ours = statistics.median(core)
            print(f"| {n} x {n} | {ours * 1000:.1f} ms | {statistics.median(whole) * 1000:.0f} ms | "
                  f"{base * 1000:.0f} ms | {base / ours:.0f}x |", flush=True)

    if args.ring and not args.quick:
        ring_table(args.ring, args.repeats, only_rules, rng)


def ring_table(n: int, repeats: int, only_rules: set[str], rng: random.Random) -> None:
    print()
    print(f"| topology | rule | k | {n} x {n} | ring_chase.solve CPU | line_chase_mod_k.solve CPU (baseline) | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    import numpy as np  # only this table hands arrays to the modules

    for top in ring_chase.TOPOLOGIES:
        for rule in NAMED:
            if only_rules and rule not in only_rules:
                continue
            board = Shape(n, n, Rules.make(top, rule, 3))
            b = np.array([rng.randrange(3) for _ in range(n * n)], dtype=np.int64).reshape(n, n)
            ours = cpu(cold_zk, ring_chase, board, b, repeats=repeats)
            base = cpu(cold_zk, line_chase_mod_k, board, b, repeats=1)
            print(f"| {top} | {rule} | 3 | {n} | {ours * 1000:.0f} ms | {base * 1000:.0f} ms | "
                  f"{base / ours:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
