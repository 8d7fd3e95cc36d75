"""Benchmark: reconstruction engines on seeded random records, and typo diagnosis.

Run from the repository root:  python bench/bench_engines.py [--repeats N] [--quick]
Each row is one kind of record (board, click method, steps); every engine reconstructs the same
fresh records (a new random hidden start per repeat), and the table shows the median wall time
per reconstruction, the median CPU time, and each engine's ratio to `linear` on the same records.
`exact` is skipped above 6x6 (its row window grows as 4^C). The last rows time
countlo.hidden.diagnose on restore-method records with one count changed so that they contradict.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from countlo.board import Shape
from countlo.hidden.diagnose import diagnose
from countlo.hidden.rebuild import Engine, Status, reconstruct
from countlo.hidden.record import Record, Step, possible_after, record_of


def clicks_for(method: str, shape: Shape, rng: random.Random) -> list[int]:
    n = shape.cells
    if method == "restore":
        return [k for k in range(n) for _ in (0, 1)]
    if method == "sequential":
        return list(range(n))
    return [rng.randrange(n) for _ in range(int(method.split()[0]))]


def timed(fn, *args):
    """(result, wall seconds, CPU seconds) of one call."""
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - w, time.process_time() - c


def with_typo(rec: Record, rng: random.Random) -> tuple[Record | tuple, int] | None:
    """The raw record with one probe count changed so that no start explains it, and the step changed."""
    shape, counts, cells = rec.shape, rec.counts, [s.cell for s in rec.steps]
    for _ in range(200):
        i = rng.randrange(1, len(counts))
        other = [v for v in possible_after(shape, cells[i - 1], counts[i - 1]) if v != counts[i]]
        if not other:
            continue
        typed = counts[:i] + [rng.choice(other)] + counts[i + 1 :]
        raw = (shape, typed[0], list(zip(cells, typed[1:])))
        try:
            bad = Record(shape, typed[0], tuple(Step(k, c) for k, c in zip(cells, typed[1:])))
        except ValueError:
            return raw, i
        if reconstruct(bad, Engine.LINEAR).status is Status.CONTRADICTORY:
            return raw, i
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="3 repeats, no 10x10")
    args = ap.parse_args()
    repeats = 3 if args.quick else args.repeats
    rng = random.Random(args.seed)
    import z3  # noqa: F401  (load once, outside the timings)

    cases = [
        (Shape(6, 6), "restore"),
        (Shape(6, 6), "sequential"),
        (Shape(6, 6), "20 random"),
        (Shape(6, 6), "60 random"),
        (Shape(8, 8), "sequential"),
        (Shape(8, 8), "40 random"),
        (Shape(10, 10), "sequential"),
        (Shape(10, 10), "60 random"),
        (Shape(10, 10), "150 random"),
    ]
    if args.quick:
        cases = [c for c in cases if c[0].rows < 10]
    print(f"repeats {repeats}, seed {args.seed}; median wall ms (CPU ms), ratio to linear")
    print()
    print("| board | clicks | statuses | linear | z3 | exact |")
    print("| --- | --- | --- | --- | --- | --- |")
    for shape, method in cases:
        engines = [Engine.LINEAR, Engine.Z3] + ([Engine.EXACT] if shape.cells <= 36 else [])
        wall = {e: [] for e in engines}
        cpu = {e: [] for e in engines}
        statuses = set()
        for _ in range(repeats):
            rec = record_of(shape, rng.getrandbits(shape.cells), clicks_for(method, shape, rng))
            answers = set()
            for e in engines:
                r, w, c = timed(reconstruct, rec, e)
                wall[e].append(w)
                cpu[e].append(c)
                answers.add((r.status, r.board))
                statuses.add(r.status.value)
            assert len(answers) == 1, f"engines disagree on {rec}"
        base = statistics.median(wall[Engine.LINEAR])
        cells = []
        for e in (Engine.LINEAR, Engine.Z3, Engine.EXACT):
            if e not in wall:
                cells.append("-")
                continue
            w, c = statistics.median(wall[e]) * 1e3, statistics.median(cpu[e]) * 1e3
            cells.append(f"{w:.1f} ({c:.1f}) x{w / 1e3 / base:.2f}")
        print(f"| {shape} | {method} ({len(rec.steps)}) | {'/'.join(sorted(statuses))} | " + " | ".join(cells) + " |")
    print()
    print("| diagnose | steps | median wall ms (CPU ms) | max ms | true fix found |")
    print("| --- | --- | --- | --- | --- |")
    for shape, method in ((Shape(6, 6), "restore"), (Shape(6, 6), "sequential"), (Shape(8, 8), "restore")):
        if args.quick and shape.rows > 6:
            continue
        walls, cpus, found = [], [], 0
        for _ in range(repeats):
            rec = record_of(shape, rng.getrandbits(shape.cells), clicks_for(method, shape, rng))
            typo = with_typo(rec, rng)
            if typo is None:
                continue
            raw, i = typo
            fixes, w, c = timed(diagnose, raw)
            walls.append(w)
            cpus.append(c)
            found += any(f.step == i and f.suggested == rec.counts[i] for f in fixes)
        print(
            f"| {shape} {method} | {len(rec.steps)} | {statistics.median(walls) * 1e3:.1f} "
            f"({statistics.median(cpus) * 1e3:.1f}) | {max(walls) * 1e3:.1f} | {found}/{len(walls)} |"
        )


if __name__ == "__main__":
    main()
