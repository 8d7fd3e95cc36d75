"""`countlo simulate`: many seeded games against a simulated board or a game program."""

from __future__ import annotations

import argparse
import json
import sys

from countlo.hidden.result import engine_names
from countlo.i18n import N_, _, ljust, speaking
from countlo.i18n import width as text_width
from countlo.play.names import strategy_names

# How the table names a failed game's outcome (JSON keeps the outcome's own value).
OUTCOMES = {"contradiction": N_("contradiction"), "gave up": N_("gave up"),
            "oracle error": N_("oracle error"), "solved": N_("solved"),
            "unsolvable": N_("unsolvable")}


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a whole number, not {text!r}").format(
            text=text)) from None
    if n < 1:
        raise argparse.ArgumentTypeError(_("expected at least 1, not {n}").format(n=n))
    return n


def _density(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a probability like 0.5, not {text!r}").format(
            text=text)) from None
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError(_("density must be between 0 and 1, not {text}").format(
            text=text))
    return p


def _seconds(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected seconds like 5, not {text!r}").format(
            text=text)) from None
    if t <= 0:
        raise argparse.ArgumentTypeError(_("timeout must be positive, not {text}").format(
            text=text))
    return t


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=_positive, default=100, metavar="N", help=_("games to play (default 100)"))
    p.add_argument("--strategy", default="adaptive", metavar="S", type=str.lower,
                   choices=strategy_names(),
                   help=_("{names} (default adaptive; manual: a random player)").format(
                       names=", ".join(strategy_names())))
    p.add_argument("--engine", default="exact", metavar="E", type=str.lower, choices=engine_names(),
                   help=_("{names} (default exact)").format(names=", ".join(engine_names())))
    p.add_argument("--size", default="6x6", metavar="RxC", help=_("board size (default 6x6)"))
    p.add_argument("--seed", type=int, default=0, metavar="K", help=_("first seed; games use K, K+1, ..."))
    p.add_argument("--density", type=_density, default=0.5, metavar="P",
                   help=_("chance each hidden light starts on (default 0.5)"))
    p.add_argument("--oracle-cmd", metavar="'PROGRAM ARGS'",
                   help=_("play against this game program (line protocol; COUNTLO_SEED is set per "
                          "game)"))
    p.add_argument("--timeout", type=_seconds, default=5.0, metavar="SECONDS",
                   help=_("how long to wait for each answer of the game program (default 5)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object instead of a table"))


def run(args: argparse.Namespace) -> int:
    from countlo.board import Shape
    from countlo.play.game import summarize

    shape = Shape.parse(args.size)
    _warm_up(shape, args)
    seeds = range(args.seed, args.seed + args.games)
    results, records = [], []
    for seed, (result, hidden) in zip(seeds, _games(args, shape, seeds)):
        results.append(result)
        records.append(_record(shape, seed, result, hidden))
    s = summarize(results)
    if args.json:
        out = {
            "size": str(shape), "strategy": args.strategy, "engine": args.engine,
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
        print(_table(args, shape, s, records, results))
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

        with ProgressBar(title=_("{strategy} on {shape}").format(strategy=args.strategy,
                                                                  shape=shape),
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
    with speaking("en"):  # JSON reads the same in every language
        reason = ending_text(shape, r.ending)
    out = {
        "seed": seed, "outcome": r.outcome.value, "solved": r.solved, "probes": r.probes,
        "clicks": r.clicks, "reason": reason,
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


def _r(x):
    return None if x is None else round(x, 3)


def _table(args, shape, s, records, results) -> str:
    from countlo.ui.wording import ending_text

    def num(x, digits=1):
        return "-" if x is None else (f"{x:.{digits}f}" if isinstance(x, float) else str(x))

    if args.oracle_cmd:
        against = _("program {command!r}").format(command=args.oracle_cmd)
    else:
        against = _("density {p}").format(p=f"{args.density:g}")
    last = args.seed + s.games - 1
    stats = _("mean {mean}  median {median}  max {max}")
    rows = [(_("games"), str(s.games)), (_("solved"), str(s.solved))]
    if s.unsolvable:
        rows.append((_("cannot be cleared"),
                     _("{n}  (proved by a quiet pattern)").format(n=s.unsolvable)))
    rows += [
        (_("failed"), str(s.failed)),
        (_("probes"), stats.format(mean=num(s.probes_mean), median=num(s.probes_median),
                                   max=num(s.probes_max))),
        (_("total clicks"), stats.format(mean=num(s.clicks_mean), median=num(s.clicks_median),
                                         max=num(s.clicks_max))),
        (_("time per decision"), _("mean {mean} ms  max {max} ms").format(
            mean=num(s.decision_ms_mean), max=num(s.decision_ms_max))),
    ]
    label = max(text_width(name) for name, _value in rows) + 2  # values in one column
    lines = [_("{games} games on {shape}, strategy {strategy}, engine {engine}, seeds "
               "{first}-{last}, {against}").format(games=s.games, shape=shape,
                                                   strategy=args.strategy, engine=args.engine,
                                                   first=args.seed, last=last, against=against)]
    lines += [f"  {ljust(name, label)}{value}" for name, value in rows]
    bad = [(rec, res) for rec, res in zip(records, results)
           if rec["outcome"] not in ("solved", "unsolvable")]
    for rec, res in bad[:5]:
        outcome = OUTCOMES[rec["outcome"]]
        lines.append("  " + _("seed {seed}: {outcome}: {reason}").format(
            seed=rec["seed"], outcome=_(outcome),
            reason=ending_text(shape, res.ending)))
    if len(bad) > 5:
        lines.append("  " + _("... and {n} more failed games").format(n=len(bad) - 5))
    return "\n".join(lines)
