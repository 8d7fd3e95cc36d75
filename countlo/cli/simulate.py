"""`countlo simulate`: many seeded games against a simulated board or a game program."""

from __future__ import annotations

import argparse
import sys

from countlo.cli import options
from countlo.hidden.result import engine_names
from countlo.i18n import N_, _, ljust, ngettext, reason, width
from countlo.play.strategies.names import strategy_names
from countlo.ui.rulewords import rules_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `simulate --help` loads neither
if TYPE_CHECKING:  # typing nor json (bench/bench_startup.py)
    from collections.abc import Generator, Sequence
    from typing import Any

    from distributed import Client
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    from countlo.cli.workers import Game
    from countlo.countboard import CountBoard
    from countlo.play.game import Finished, Summary

    Scored = tuple[int, Finished, dict[str, Any]]  # (seed, the game, its JSON record)

MAX_GAMES = 1_000_000
JOBS_PER_CORE = 4  # --jobs above this many per core only adds memory (a game is single-threaded)
MAX_TIMEOUT = 86400.0
# how the table names a failed game's outcome (the JSON keeps the outcome's own value)
OUTCOMES = {"contradiction": N_("contradiction"), "gave up": N_("gave up"), "oracle error": N_("oracle error")}


def _positive(text: str) -> int:
    return options.bounded(1, MAX_GAMES)(text)


def _density(text: str) -> float:
    return options.decimal(text, _("a probability like 0.5"), 0.0, 1.0)


def _seconds(text: str) -> float:
    return options.decimal(text, _("seconds like 5 or 0.5"), 0.0, MAX_TIMEOUT, open_low=True)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=_positive, default=100, metavar="N", help=_("games to play (default 100)"))
    p.add_argument("--strategy", default="adaptive", metavar="S", type=str.lower,
                   choices=strategy_names(),
                   help=_("{names} (default adaptive; manual: a random player)").format(
                       names=", ".join(strategy_names())))
    p.add_argument("--engine", default="exact", metavar="E", type=str.lower, choices=engine_names(),
                   help=_("{names} (default exact)").format(names=", ".join(engine_names())))
    p.add_argument("--size", metavar="RxC", help=_("board size (default 6x6)"))
    p.add_argument("--seed", type=options.integer, default=0, metavar="K",
                   help=_("first seed; games use K, K+1, ..."))
    p.add_argument("--density", type=_density, default=0.5, metavar="P",
                   help=_("chance each hidden light starts on (default 0.5)"))
    p.add_argument("--oracle-cmd", metavar="'PROGRAM ARGS'",
                   help=_("play against this game program (line protocol; COUNTLO_SEED is set per game)"))
    p.add_argument("--timeout", type=_seconds, default=5.0, metavar="SECONDS",
                   help=_("how long to wait for each answer of the game program (default 5)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object instead of a table"))
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help=_("play games in N worker processes (the same games and summary as one "
                          "process; default: the cores available, never more than the games, and none "
                          "for a run that ends within seconds)"))
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=_("play the games on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                          "tcp://10.0.0.5:8786 (needs pip install 'countlo[cluster]'; the same games "
                          "and summary as one process)"))
    p.add_argument("--trust-cluster", action="store_true",
                   help=_("allow a plain tcp:// --scheduler on another machine: everyone who can reach it "
                          "can join the cluster (see the trust model in docs/simulate.md)"))
    p.add_argument("--tls-ca-file", metavar="FILE", help=_("with a tls:// --scheduler: the CA that signs "
                                                            "the certificates of the cluster's members"))
    p.add_argument("--tls-cert", metavar="FILE", help=_("with a tls:// --scheduler: this client's certificate"))
    p.add_argument("--tls-key", metavar="FILE", help=_("with a tls:// --scheduler: this client's private key"))
    p.add_argument("--records", metavar="FILE",
                   help=_("write one JSON line per game to FILE as soon as it finishes"))
    from countlo.cli.rules_args import add_rule_arguments

    add_rule_arguments(p)


def run(args: argparse.Namespace) -> int:
    import json

    from countlo.board import Shape
    from countlo.cli.play import check_size
    from countlo.cli.records import rounded
    from countlo.cli.rules_args import hidden_board
    from countlo.cli.workers import available_cores
    from countlo.hidden.posterior.frontier import check_supported
    from countlo.play.game import summarize
    from countlo.play.program import program_argv

    shape = hidden_board(args)
    args.built_board = shape  # for the workers (countlo.cli.workers)
    check_supported(shape)
    check_size(shape)
    if args.oracle_cmd is not None:
        program_argv(args.oracle_cmd)  # an empty or unbalanced command fails before any game
    seeds = range(args.seed, args.seed + args.games)
    most = JOBS_PER_CORE * available_cores()
    if args.jobs is not None and args.jobs > most:  # each worker is an interpreter of ~45 MB
        from countlo.errors import CountloError

        raise CountloError(_("--jobs {n}: at most {most} worker processes here ({per} per core)").format(
            n=args.jobs, most=most, per=JOBS_PER_CORE))
    jobs = min(args.jobs or available_cores(), args.games)
    client = None
    if args.scheduler is not None and not isinstance(shape, Shape):
        from countlo.errors import CountloError

        raise CountloError(_("--scheduler plays grids; play {board} here (leave out --scheduler)").format(
            board=shape))
    if args.scheduler is not None:
        from countlo.cli.cluster import connect
        from countlo.errors import CountloError

        if args.jobs is not None:
            raise CountloError("--jobs and --scheduler do not go together: the cluster's workers play the games")
        client = connect(args.scheduler, args.trust_cluster,  # one line, exit 2, before any file is written
                         (args.tls_ca_file, args.tls_cert, args.tls_key))
    finished, interrupted, error = _play_all(args, shape, seeds, jobs, client)
    order = sorted(finished)
    results = [finished[seed][0] for seed in order]
    records = [finished[seed][1] for seed in order]
    s = summarize(results)
    if args.json:
        from countlo.board import Shape
        from countlo.countboard import PressBoard
        from countlo.formats.jsonshape import board_head

        assert isinstance(shape, Shape | PressBoard)
        out = {  # the shape every --json shares (docs/json.md)
            **board_head(shape if isinstance(shape, Shape) else shape.board),
            "target": shape.rules.target if isinstance(shape, Shape) else shape.target,
            "partial": interrupted, "games_asked": args.games,
            "strategy": args.strategy, "engine": args.engine,
            "oracle": "simulated" if args.oracle_cmd is None else args.oracle_cmd, "density": args.density,
            "games": s.games, "solved": s.solved, "unsolvable": s.unsolvable, "failed": s.failed,
            "probes_mean": rounded(s.probes_mean), "probes_median": rounded(s.probes_median),
            "probes_max": s.probes_max, "clicks_mean": rounded(s.clicks_mean),
            "clicks_median": rounded(s.clicks_median), "clicks_max": s.clicks_max,
            "decision_ms_mean": rounded(s.decision_ms_mean), "decision_ms_max": rounded(s.decision_ms_max),
            "records": records,
        }
        print(json.dumps(out, indent=1))
    else:
        from countlo.ui.layout import wrapped

        print(wrapped(_table(args, shape, s, records, interrupted), sys.stdout))
    if error is not None:  # the summary above is of the games played; the records file is not complete
        sys.stdout.flush()
        sys.stderr.write(f"countlo simulate: {error}\n")
        return 2
    if interrupted:
        return 130
    return 1 if s.failed else 0


def _play_all(args: argparse.Namespace, shape: CountBoard, seeds: Sequence[int], jobs: int,
              client: Client | None = None) -> tuple[dict[int, tuple[Finished, dict[str, Any]]], bool, str | None]:
    """{seed: (GameResult, JSON record)} of every finished game, whether the run was cut short
    (Ctrl-C, or --records could not be written: the games finished by then are kept; with
    --records each is on disk already), and the one line saying why --records failed."""
    import json

    from countlo.errors import CountloError
    from countlo.formats.output import stream as open_stream

    finished: dict[int, tuple[Finished, dict[str, Any]]] = {}
    stream = None
    error: str | None = None
    if args.records is not None:
        try:
            stream = open_stream(args.records, "--records")
        except CountloError:
            if client is not None:
                client.close()
            raise
    games = _games(args, shape, seeds, jobs, client)
    try:
        for seed, result, record in games:
            finished[seed] = (result, record)
            if stream is not None:
                stream.write(json.dumps(record) + "\n")
                stream.flush()
    except KeyboardInterrupt:
        interrupted = True
    except OSError as e:  # a full disk: the run stops, the games played so far are summarised
        if stream is None:
            raise
        error, interrupted = _cannot_record(args.records, e), True
    else:
        interrupted = False
    finally:
        games.close()  # ends the workers, if any
    if stream is not None:
        try:
            stream.close()
        except OSError as e:  # the last lines' flush failed: said once, after the summary
            error = error or _cannot_record(args.records, e)
    return finished, interrupted, error


def _cannot_record(path: str, e: OSError) -> str:
    return _("cannot write --records {path}: {reason}").format(path=path, reason=reason(e))


def _games(args: argparse.Namespace, shape: CountBoard, seeds: Sequence[int], jobs: int,
           client: Client | None = None) -> Generator[Scored, None, None]:
    """(seed, GameResult or records.Played, JSON record) per finished game, in this process, in
    `jobs` workers or on the Dask cluster of `client` (then in the order they finish), with a
    progress bar on a terminal."""
    from countlo.cli.workers import play_in_process, play_in_workers, play_one, play_then_spread, warm_up

    source: Generator[Scored, None, None]
    if client is not None:
        from countlo.board import Shape
        from countlo.cli.cluster import play_on_cluster

        assert isinstance(shape, Shape)  # refused in run() otherwise
        source = play_on_cluster(client, args, shape, seeds)  # records checked as they arrive
    else:
        games: Generator[Game, None, None]
        if jobs > 1 and args.jobs is not None:  # asked for: workers from the first game
            games = play_in_workers(args, seeds, jobs)
        elif jobs > 1:
            games = play_then_spread(args, shape, seeds, jobs)
        else:
            warm_up(shape, args)
            games = play_in_process(lambda seed: play_one(args, shape, seed), seeds)
        source = _with_records(shape, games)
    try:
        if sys.stderr.isatty():
            from prompt_toolkit.output import create_output
            from prompt_toolkit.shortcuts import ProgressBar

            with ProgressBar(title=_("{strategy} on {shape}").format(strategy=args.strategy, shape=shape),
                             output=create_output(stdout=sys.stderr)) as bar:
                counter: ProgressBarCounter[object] = bar(total=len(seeds))
                for game in source:
                    yield game
                    counter.item_completed()
        else:
            yield from source
    finally:
        source.close()


def _with_records(shape: CountBoard, games: Generator[Game, None, None]) -> Generator[Scored, None, None]:
    """(seed, GameResult, JSON record) of each (seed, GameResult, hidden start) in `games`."""
    from countlo.cli.records import game_record

    try:
        for seed, result, hidden in games:
            yield seed, result, game_record(shape, seed, result, hidden)
    finally:
        games.close()  # ends the workers, if any


def _board(shape: CountBoard) -> str:
    from countlo.board import Shape
    from countlo.countboard import PressBoard

    if not isinstance(shape, Shape):  # a press board: what it is, and where it came from
        return shape.describe() if isinstance(shape, PressBoard) else str(shape)
    return str(shape) if shape.rules.classic and shape.rules.target == "dark" else (
        f"{shape} ({rules_text(shape.rules)})")


def _table(args: argparse.Namespace, shape: CountBoard, s: Summary, records: list[dict[str, Any]],
           interrupted: bool = False) -> str:
    def num(x: float | None, digits: int = 1) -> str:
        return "-" if x is None else (f"{x:.{digits}f}" if isinstance(x, float) else str(x))

    if args.oracle_cmd is not None:
        against = _("program {command!r}").format(command=args.oracle_cmd)
    else:
        against = _("density {p}").format(p=f"{args.density:g}")
    last = args.seed + s.games - 1
    seeds = _("seeds {first}-{last}").format(first=args.seed, last=last)
    if interrupted:
        seeds = _("interrupted: {n} of {asked} games finished (partial), seeds from {first}").format(
            n=s.games, asked=args.games, first=args.seed)
    # the table's labels are padded by terminal columns, so Chinese labels line up too
    label = max(width(t) for t in (_("games"), _("solved"), _("cannot be cleared"), _("failed"),
                                   _("probes"), _("total clicks"), _("time per decision")))
    label = max(label, 17)

    def row(title: str, text: object) -> str:
        return f"  {ljust(title, label)}  {text}"

    stats = _("mean {mean}  median {median}  max {most}")
    lines = [
        ngettext("{n} game on {board}, strategy {strategy}, engine {engine}, {seeds}, {against}",
                 "{n} games on {board}, strategy {strategy}, engine {engine}, {seeds}, {against}",
                 s.games).format(n=s.games, board=_board(shape), strategy=args.strategy,
                                 engine=args.engine, seeds=seeds, against=against),
        row(_("games"), s.games),
        row(_("solved"), s.solved),
    ]
    if s.unsolvable:
        lines.append(row(_("cannot be cleared"), f"{s.unsolvable}  " + _("(proved by a quiet pattern)")))
    lines += [
        row(_("failed"), s.failed),
        row(_("probes"), stats.format(mean=num(s.probes_mean), median=num(s.probes_median),
                                      most=num(s.probes_max))),
        row(_("total clicks"), stats.format(mean=num(s.clicks_mean), median=num(s.clicks_median),
                                            most=num(s.clicks_max))),
        row(_("time per decision"), _("mean {mean} ms  max {most} ms").format(
            mean=num(s.decision_ms_mean), most=num(s.decision_ms_max))),
    ]
    bad = [r for r in records if r["outcome"] not in ("solved", "unsolvable")]
    for r in bad[:5]:
        lines.append("  " + _("seed {seed}: {outcome}: {reason}").format(
            seed=r["seed"], outcome=_(OUTCOMES.get(r["outcome"], r["outcome"])), reason=r["reason"]))
    if len(bad) > 5:
        lines.append("  " + ngettext("... and {n} more failed game", "... and {n} more failed games",
                                     len(bad) - 5).format(n=len(bad) - 5))
    return "\n".join(lines)
