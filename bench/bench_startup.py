"""Benchmark: CPU cost of starting the command line, against a bare interpreter.

Run from the repository root:  python bench/bench_startup.py [--repeats N]
Each case runs as a child process of this one; its CPU time (user + system, from the
children's resource usage before and after) is the figure, median over the repeats, because on
a shared machine wall time mostly measures the neighbours. The baseline is `python -c pass` with
the same interpreter and environment, measured in the same run, interleaved with the others so
that load changes hit every case alike. Children run with bytecode caching on (as an installed
countlo has its .pyc files), so the warm-up run writes countlo's __pycache__ if it is missing. The issue's goal: `countlo solve --all-on --size 6x6`
costs at most 1.5 times the baseline.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "countlo solve --all-on --size 6x6": ["-m", "countlo", "solve", "--all-on", "--size", "6x6"],
    "countlo --help": ["-m", "countlo", "--help"],
    "countlo solve --help": ["-m", "countlo", "solve", "--help"],
    **{f"countlo {c} --help": ["-m", "countlo", c, "--help"]
       for c in ("play", "simulate", "replay", "generate", "practice", "userscript")},
}
BASELINE = "python -c pass"
GOAL = "countlo solve --all-on --size 6x6"
# modules whose import alone costs a noticeable share of a bare start (or far more)
HEAVY = ("numpy", "z3", "prompt_toolkit", "dataclasses", "inspect", "typing", "json", "shutil",
         "random", "datetime", "enum")
_IMPORTED = (
    "import sys, io; before = set(sys.modules); from countlo.cli import main;"
    "sys.stdout = io.StringIO(); main(['solve', '--all-on', '--size', '6x6']);"
    "sys.stdout = sys.__stdout__; print(' '.join(sorted(set(sys.modules) - before)))"
)


def child_cpu(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) one child `python ARGS` spends, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} failed ({done.returncode}): "
                         f"{done.stderr.decode(errors='replace').strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def child_env() -> dict[str, str]:
    """This environment with the checkout first on the path and bytecode caching on (as for an
    installed countlo: the warm-up run writes __pycache__)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def measure(repeats: int) -> dict[str, list[float]]:
    """CPU seconds per case, `repeats` runs each, the cases interleaved."""
    env = child_env()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for args in CASES.values():  # one warm-up each: file caches, .pyc files
        child_cpu(args, env)
    for _ in range(repeats):
        for name, args in CASES.items():
            times[name].append(child_cpu(args, env))
    return times


def heavy_imports(env: dict[str, str]) -> list[str]:
    """The HEAVY modules a 6x6 solve imports that a bare interpreter had not."""
    out = subprocess.run([sys.executable, "-c", _IMPORTED], env=env, cwd=ROOT, text=True,
                         capture_output=True, check=True).stdout.split()
    return sorted({m.split(".")[0] for m in out} & set(HEAVY))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15, help="runs per case (default 15)")
    args = ap.parse_args()
    times = measure(max(1, args.repeats))
    base = statistics.median(times[BASELINE])
    print(f"CPU time per start, median of {args.repeats} ({sys.executable}, "
          f"Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f} at the end)")
    print()
    print("| command | CPU, median | min | ratio to `python -c pass` |")
    print("| --- | ---: | ---: | ---: |")
    for name, xs in times.items():
        med = statistics.median(xs)
        print(f"| `{name}` | {med * 1000:.0f} ms | {min(xs) * 1000:.0f} ms | {med / base:.2f}x |")
    ratio = statistics.median(times[GOAL]) / base
    print()
    print(f"goal: `{GOAL}` at most 1.5x the bare interpreter: {ratio:.2f}x "
          f"({'met' if ratio <= 1.5 else 'not met'})")
    helps = [name for name in CASES if name.endswith("--help")]
    worst = max(helps, key=lambda name: statistics.median(times[name]))
    print(f"goal: every `--help` at most 1.5x: the slowest, `{worst}`, "
          f"{statistics.median(times[worst]) / base:.2f}x")
    heavy = heavy_imports(child_env())
    print(f"heavy modules that solve imports: {', '.join(heavy) or 'none'} "
          f"(watched: {', '.join(HEAVY)})")


if __name__ == "__main__":
    main()
