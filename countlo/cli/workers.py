"""Games of `countlo simulate` in worker processes, streamed back as they finish.

Each game depends only on its seed (the simulated board, the guide's random choices), so N
processes playing disjoint seeds give exactly the games one process would; the caller puts them
back in seed order. Workers ignore SIGINT: Ctrl-C reaches the parent, which stops handing out
seeds, ends the workers and keeps every game that finished.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any

from countlo import i18n

Game = tuple[int, Any, Any]  # (seed, GameResult, hidden start or None)

# Without --jobs, games are played in this process until they have taken this long (wall clock):
# a worker costs a fresh interpreter, its imports and a warm-up decision (about a second each on
# a busy 2-core machine), so a run that ends sooner would only be slowed down by workers.
HANDOVER_SECONDS = 2.0
clock = time.perf_counter  # wall clock: a game program's own time counts too (tests count calls instead)


def available_cores() -> int:
    """Cores this process may run on (the default number of workers)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def play_in_process(play: Callable[[int], tuple[Any, Any]],
                    seeds: Iterable[int]) -> Generator[Game, None, None]:
    """Games one after another in this process."""
    for seed in seeds:
        result, hidden = play(seed)
        yield seed, result, hidden


def play_then_spread(args: argparse.Namespace, shape: Any, seeds: Sequence[int],
                     jobs: int, budget: float | None = None) -> Generator[Game, None, None]:
    """The default of --jobs: games in this process while the run is short; once they have
    taken `budget` seconds (HANDOVER_SECONDS), the rest in min(jobs, games left) workers.

    Each game depends only on its seed, so where a game is played changes nothing but the time.
    """
    budget = HANDOVER_SECONDS if budget is None else budget
    warm_up(shape, args)
    began = clock()
    for i, seed in enumerate(seeds):
        result, hidden = play_one(args, shape, seed)
        yield seed, result, hidden
        rest = seeds[i + 1:]
        if len(rest) > 1 and jobs > 1 and clock() - began > budget:
            yield from play_in_workers(args, rest, min(jobs, len(rest)))
            return


def warm_up(shape: Any, args: argparse.Namespace) -> None:
    """One untimed decision, so one-off costs (imports, per-shape tables) stay out of the times."""
    from countlo.play.guide import Guide

    guide = Guide(shape, args.strategy, args.engine, counts=False)
    guide.start(shape.cells // 2)
    guide.advice()


def play_one(args: argparse.Namespace, shape: Any, seed: int) -> tuple[Any, Any]:
    """One game of `simulate`: (GameResult, the hidden start, None from a game program)."""
    from countlo.play.game import play_game
    from countlo.play.oracle import SimulatedOracle
    from countlo.play.program import ProgramOracle

    if args.oracle_cmd:
        with ProgramOracle(args.oracle_cmd, shape, args.timeout, env={"COUNTLO_SEED": str(seed)}) as program:
            return play_game(program, args.strategy, args.engine, seed), None
    simulated = SimulatedOracle(shape, seed, args.density)
    return play_game(simulated, args.strategy, args.engine, seed), simulated.board


def _shape(args: argparse.Namespace) -> Any:
    from countlo.cli.rules_args import hidden_board

    # the board simulate built, sent along: a --graph or --buttons FILE read from stdin cannot be
    # read again in a worker
    built = getattr(args, "built_board", None)
    return built if built is not None else hidden_board(args)


_ARGS: argparse.Namespace | None = None


WATCH_SECONDS = 1.0  # how often a worker looks whether its parent is still there
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int | None = None) -> None:
    """End this worker when the process that started it dies, even by SIGKILL (a crash, the OOM
    killer), so no worker plays on for minutes holding its memory: on Linux the kernel sends
    SIGKILL at the parent's death (prctl PR_SET_PDEATHSIG); everywhere a daemon thread checks
    every WATCH_SECONDS that the parent is still this process's parent."""
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc to ask: the watchdog below still works
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="countlo-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:  # re-parented: the parent is gone
            os._exit(1)


def _start_worker(args: argparse.Namespace, lang: str = "en", parent: int | None = None) -> None:
    global _ARGS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    die_with_parent(parent)
    _ARGS = args
    i18n.use(lang)  # a spawned worker speaks what the parent was asked to (--lang is not inherited)

    warm_up(_shape(args), args)


def _play_seed(seed: int) -> Game:

    assert _ARGS is not None
    result, hidden = play_one(_ARGS, _shape(_ARGS), seed)
    return seed, result, hidden


_WARM: set[tuple[str, ...]] = set()  # (size, rules, strategy, engine) warmed up in this process


def play_seed(args: argparse.Namespace, seed: int) -> Game:
    """One game anywhere (a Dask worker, countlo.cli.cluster): the first game of a kind in a
    process is preceded by an untimed warm-up, as in this process and in the --jobs workers."""
    shape = _shape(args)
    kind = (str(shape), shape.rules.describe(), args.strategy, args.engine)
    if kind not in _WARM:
        warm_up(shape, args)
        _WARM.add(kind)
    result, hidden = play_one(args, shape, seed)
    return seed, result, hidden


def play_plain(args: argparse.Namespace, seed: int, lang: str = "en") -> str:
    """One game on a Dask worker, returned as plain JSON text (countlo.cli.records.to_plain):
    the only thing countlo takes back from a cluster, so nothing there is unpickled here."""
    from countlo.cli.records import to_plain

    i18n.use(lang)  # the reasons in the record are worded in the language countlo speaks
    seed, result, hidden = play_seed(args, seed)
    return to_plain(_shape(args), seed, result, hidden)


def _quiet_tracker() -> None:
    """The pool's queues hold a few semaphores, which multiprocessing's resource tracker removes
    if this process dies without doing so (SIGKILL, the OOM killer): that clean-up is its job,
    and its warning ('There appear to be 5 leaked semaphore objects') would only alarm. The
    tracker, started with the pool, takes its warning filters from sys.warnoptions."""
    quiet = "ignore:resource_tracker:UserWarning"
    if quiet not in sys.warnoptions:
        sys.warnoptions.append(quiet)


def play_in_workers(args: argparse.Namespace, seeds: Iterable[int],
                    jobs: int) -> Generator[Game, None, None]:
    """Games in `jobs` worker processes, yielded as they finish (not in seed order).

    At most 2 * jobs games are handed out ahead, so a long run holds little in flight; closing
    the generator (or an exception in the caller, e.g. KeyboardInterrupt) ends the workers.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    # spawn: a fresh interpreter per worker, safe beside the progress bar's thread
    context = multiprocessing.get_context("spawn")
    _quiet_tracker()
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                               initargs=(args, i18n.language(), os.getpid()))
    pending: set[Future[Any]] = set()
    todo = iter(seeds)
    try:
        for seed in todo:
            pending.add(pool.submit(_play_seed, seed))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(pool.submit(_play_seed, nxt))
    finally:
        for future in pending:
            future.cancel()
        processes = list(getattr(pool, "_processes", {}).values())
        for p in processes:  # games in progress are abandoned, not waited for
            p.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
