"""Games of `countlo simulate --scheduler ADDRESS` on a Dask cluster (the `countlo[cluster]` extra).

The scheduler is Dask's (`dask scheduler`, `dask worker ADDRESS`): a well-kept one that already
handles workers joining, leaving and dying, which our own sockets would have to relearn. Each
game is one task running countlo.cli.workers.play_seed, so it depends only on its seed and the
cluster plays exactly the games one process would; the caller puts them back in seed order. A
bounded number of games is handed out ahead (a run of 10^5 games holds little in flight), and
closing the generator (Ctrl-C in the caller) cancels what is not finished and leaves the cluster.

dask and distributed are imported here only, on this path: without the extra, every other
command works as before and `--scheduler` says in one line what to install.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Generator, Sequence
from typing import Any

from countlo.errors import CountloError
from countlo.i18n import _

CONNECT_SECONDS = 10.0  # how long to try reaching the scheduler before saying it cannot be reached
AHEAD_PER_THREAD = 2  # games handed out per worker thread beyond the ones being played
AHEAD_LEAST = 8  # ... and at least this many, so workers that join later find games waiting

Game = tuple[int, Any, Any]  # (seed, GameResult, hidden start or None)


class ClusterError(CountloError):
    """The cluster extra is missing, or the scheduler cannot be reached (exit 2: the user's setup)."""

    exit_code = 2


def connect(address: str) -> Any:
    """A distributed.Client on the scheduler at `address`; ClusterError in one line if the extra
    is not installed or the scheduler does not answer within CONNECT_SECONDS."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(_("--scheduler needs the cluster extra: pip install 'countlo[cluster]' "
                             "(dask and distributed)")) from None
    from distributed.comm import parse_address, parse_host_port

    try:  # a malformed address fails here, before a Client exists (its clean-up would hang)
        scheme, where = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(where)
    except (ValueError, TypeError) as e:
        raise ClusterError(_("--scheduler {address!r} is not a scheduler address like "
                             "tcp://10.0.0.5:8786: {error}").format(address=address, error=e)) from None
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        why = " ".join(str(e).split()) or type(e).__name__
        raise ClusterError(_("cannot reach the Dask scheduler at {address}: {why}").format(
            address=address, why=why)) from None


def _portable(args: argparse.Namespace) -> argparse.Namespace:
    """The options a worker needs, without the command's own functions."""
    return argparse.Namespace(**{k: v for k, v in vars(args).items() if not callable(v)})


def _threads(client: Any) -> int:
    return sum(client.nthreads().values())


def play_on_cluster(client: Any, args: argparse.Namespace, seeds: Sequence[int]) -> Generator[Game, None, None]:
    """Games on the cluster of `client` (from connect), yielded as they finish (not in seed
    order); the client is closed when the generator ends or is closed."""
    from distributed import as_completed

    from countlo.cli.workers import play_seed

    address = client.scheduler.address
    portable = _portable(args)
    run = uuid.uuid4().hex[:12]  # task keys unique to this run: other runs may share the scheduler
    todo = iter(seeds)
    running = as_completed(loop=client.loop)
    in_flight: dict[Any, int] = {}

    def hand_out() -> None:
        ahead = max(AHEAD_LEAST, AHEAD_PER_THREAD * _threads(client))
        while len(in_flight) < ahead:
            seed = next(todo, None)
            if seed is None:
                return
            future = client.submit(play_seed, portable, seed, key=f"countlo-{run}-{seed}", pure=False)
            in_flight[future] = seed
            running.add(future)

    try:
        if not _threads(client):
            print("countlo simulate: " + _("no Dask workers at {address} yet; waiting for one "
                                           "(start one with: dask worker {address})").format(address=address),
                  file=sys.stderr, flush=True)
        hand_out()
        for future in running:
            seed = in_flight.pop(future)
            try:
                game = future.result()
            except ImportError as e:  # the worker's Python has no countlo (or another version)
                raise ClusterError(_("a Dask worker could not play seed {seed}: {error} (install countlo "
                                     "on every worker, the same version as here)").format(seed=seed, error=e)) from None
            except Exception as e:
                if type(e).__name__ != "KilledWorker":
                    raise
                raise ClusterError(_("the Dask workers died playing seed {seed}: {error}").format(
                    seed=seed, error=e)) from None
            yield game
            hand_out()
    finally:
        if in_flight:
            client.cancel(list(in_flight))
        client.close(timeout=CONNECT_SECONDS)
