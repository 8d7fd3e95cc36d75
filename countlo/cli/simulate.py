"""`countlo simulate`: many seeded games against a simulated board or a game program."""

from __future__ import annotations

import argparse
import json
import sys

from countlo.hidden.result import engine_names
from countlo.play.names import strategy_names


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {n}")
    return n


def _density(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a probability like 0.5, not {text!r}") from None
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError(f"density must be between 0 and 1, not {text}")
    return p


def _seconds(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds like 5, not {text!r}") from None
    if t <= 0:
        raise argparse.ArgumentTypeError(f"timeout must be positive, not {text}")
    return t


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=_positive, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--strategy", default="adaptive", metavar="S", type=str.lower,
                   choices=strategy_names(),
                   help=f"{', '.join(strategy_names())} (default adaptive; manual: a random player)")
    p.add_argument("--engine", default="exact", metavar="E", type=str.lower, choices=engine_names(),
                   help=f"{', '.join(engine_names())} (default exact)")
    p.add_argument("--size", default="6x6", metavar="RxC", help="board size (default 6x6)")
    p.add_argument("--seed", type=int, default=0, metavar="K", help="first seed; games use K, K+1, ...")
    p.add_argument("--density", type=_density, default=0.5, metavar="P",
                   help="chance each hidden light starts on (default 0.5)")
    p.add_argument("--oracle-cmd", metavar="'PROGRAM ARGS'",
                   help="play against this game program (line protocol; COUNTLO_SEED is set per game)")
    p.add_argument("--timeout", type=_seconds, default=5.0, metavar="SECONDS",
                   help="how long to wait for each answer of the game program (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    from countlo.cli.rules_args import add_rule_arguments

    add_rule_arguments(p)


def run(args: argparse.Namespace) -> int:
    from countlo.board import Shape
    from countlo.cli.rules_args import rules_of
    from countlo.play.game import summarize

    shape = Shape.parse(args.size).with_rules(rules_of(args))
    _warm_up(shape, args)
    seeds = range(args.seed, args.seed + args.games)
    results, records = [], []
    for seed, (result, hidden) in zip(seeds, _games(args, shape, seeds)):
        results.append(result)
        records.append(_record(shape, seed, result, hidden))
    s = summarize(results)
    if args.json:
        out = {
            "size": str(shape), "rules": shape.rules.describe(), "strategy": args.strategy, "engine": args.engine,
            "oracle": args.oracle_cmd or "simulated", "density": args.density,
            "games": s.games, "solved": s.solved, "unsolvable": s.unsolvable, "failed": s.failed,
            "probes_mean": _r(s.probes_mean), "probes_median": _r(s.probes_median),
            "probes_max": s.probes_max, "clicks_mean": _r(s.clicks_mean),
            "clicks_median": _r(s.clicks_median), "clicks_max": s.clicks_max,
            "decision_ms_mean": _r(s.decision_ms_mean), "decision_ms_max": _r(s.decision_ms_max),
            "records": records,
        }
        print(json.dumps(out, indent=1))
    else:
        print(_table(args, shape, s, records))
    return 1 if s.failed else 0


def _warm_up(shape, args) -> None:
    """One untimed decision, so one-off costs (imports, per-shape tables) stay out of the times."""
    from countlo.play.guide import Guide

    guide = Guide(shape, args.strategy, args.engine, counts=False)
    guide.start(shape.cells // 2)
    guide.advice()


def _games(args, shape, seeds):
    """(GameResult, hidden start or None) per seed, with a progress bar on a terminal."""
    if sys.stderr.isatty():
        from prompt_toolkit.output import create_output
        from prompt_toolkit.shortcuts import ProgressBar

        with ProgressBar(title=f"{args.strategy} on {shape}",
                         output=create_output(stdout=sys.stderr)) as bar:
            for seed in bar(seeds):
                yield _one(args, shape, seed)
    else:
        for seed in seeds:
            yield _one(args, shape, seed)


def _one(args, shape, seed):
    from countlo.play.game import play_game
    from countlo.play.oracle import SimulatedOracle
    from countlo.play.program import ProgramOracle

    if args.oracle_cmd:
        with ProgramOracle(args.oracle_cmd, shape, args.timeout, env={"COUNTLO_SEED": str(seed)}) as o:
            return play_game(o, args.strategy, args.engine, seed), None
    o = SimulatedOracle(shape, seed, args.density)
    return play_game(o, args.strategy, args.engine, seed), o.board


def _record(shape, seed, r, hidden) -> dict:
    from countlo.ui.wording import ending_text

    rec = r.record
    out = {
        "seed": seed, "outcome": r.outcome.value, "solved": r.solved, "probes": r.probes,
        "clicks": r.clicks, "reason": ending_text(shape, r.ending),
        "start": rec.start if rec else None,
        "steps": [[shape.name(s.cell), s.count] for s in rec.steps] if rec else [],
        "decision_ms_mean": _r(1000 * sum(r.decision_times) / len(r.decision_times)) if r.decision_times else None,
        "decision_ms_max": _r(1000 * max(r.decision_times)) if r.decision_times else None,
    }
    if hidden is not None:
        out["hidden"] = [
            "".join("#" if row >> c & 1 else "." for c in range(shape.cols)) for row in shape.to_rows(hidden)
        ]
    return out


def _board(shape) -> str:
    return str(shape) if shape.rules.classic and shape.rules.target == "dark" else (
        f"{shape} ({shape.rules.describe()})")


def _r(x):
    return None if x is None else round(x, 3)


def _table(args, shape, s, records) -> str:
    def num(x, digits=1):
        return "-" if x is None else (f"{x:.{digits}f}" if isinstance(x, float) else str(x))

    against = f"program {args.oracle_cmd!r}" if args.oracle_cmd else f"density {args.density:g}"
    last = args.seed + s.games - 1
    lines = [
        f"{s.games} games on {_board(shape)}, strategy {args.strategy}, engine {args.engine}, "
        f"seeds {args.seed}-{last}, {against}",
        f"  games              {s.games}",
        f"  solved             {s.solved}",
    ]
    if s.unsolvable:
        lines.append(f"  cannot be cleared  {s.unsolvable}  (proved by a quiet pattern)")
    lines += [
        f"  failed             {s.failed}",
        f"  probes             mean {num(s.probes_mean)}  median {num(s.probes_median)}  max {num(s.probes_max)}",
        f"  total clicks       mean {num(s.clicks_mean)}  median {num(s.clicks_median)}  max {num(s.clicks_max)}",
        f"  time per decision  mean {num(s.decision_ms_mean)} ms  max {num(s.decision_ms_max)} ms",
    ]
    bad = [r for r in records if r["outcome"] not in ("solved", "unsolvable")]
    for r in bad[:5]:
        lines.append(f"  seed {r['seed']}: {r['outcome']}: {r['reason']}")
    if len(bad) > 5:
        lines.append(f"  ... and {len(bad) - 5} more failed games")
    return "\n".join(lines)
