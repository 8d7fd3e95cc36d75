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
from typing import TYPE_CHECKING, Any

from countlo.errors import CountloError
from countlo.i18n import _, reason

if TYPE_CHECKING:
    from distributed import Client, Future
    from distributed.security import Security

    from countlo.board import Shape
    from countlo.cli.records import Played

CONNECT_SECONDS = 10.0  # how long to try reaching the scheduler before saying it cannot be reached
AHEAD_PER_THREAD = 2  # games handed out per worker thread beyond the ones being played
AHEAD_LEAST = 8  # ... and at least this many, so workers that join later find games waiting

Game = tuple[int, "Played", dict[str, Any]]  # (seed, the game, its JSON record)


class ClusterError(CountloError):
    """The cluster extra is missing, or the scheduler cannot be reached (exit 2: the user's setup)."""

    exit_code = 2


LOOPBACK_NAMES = ("localhost",)


def _loopback(host: str) -> bool:
    """True for an address of this machine only (127.0.0.0/8, ::1, localhost); names other
    than localhost are not resolved, so they count as other machines."""
    import ipaddress

    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _security(address: str, scheme: str, host: str, trust: bool, tls: Sequence[str | None]) -> Security | None:
    """The distributed.Security of the trust model (docs/simulate.md, "Who may join"): plain tcp only on
    this machine or with --trust-cluster; tls:// with the CA that signs every member's
    certificate and this client's certificate and key (mutual TLS, encryption required)."""
    given = [t for t in tls if t is not None]
    if scheme == "tls":
        if len(given) != 3:
            raise ClusterError(_("--scheduler {address}: tls:// needs --tls-ca-file, --tls-cert and --tls-key "
                                 "(the cluster's CA, and this client's certificate and key)").format(address=address))
        for path in given:
            try:
                with open(path, "rb"):
                    pass
            except OSError as e:
                raise ClusterError(_("cannot read {path}: {reason}").format(path=path, reason=reason(e))) from None
        from distributed.security import Security

        ca, cert, key = tls
        return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True)
    if given:
        raise ClusterError(_("--tls-ca-file, --tls-cert and --tls-key need a tls:// scheduler address, not "
                             "{address}").format(address=address))
    if not trust and not _loopback(host):
        raise ClusterError(_("--scheduler {address}: plain tcp:// is refused for another machine: anyone who "
                             "can reach that scheduler can join it; use tls:// with --tls-ca-file, --tls-cert "
                             "and --tls-key, or say --trust-cluster if you trust that network").format(address=address))
    return None


def _client_class() -> type[Client]:
    """distributed.Client, except that a client which failed to connect is not closed again when
    it is collected (Dask's own clean-up of it waits 20 s and prints a traceback)."""
    import contextlib

    from distributed import Client

    class OneShotClient(Client):
        _failed = False

        def start(self, **kwargs: Any) -> Any:
            try:
                return super().start(**kwargs)  # type: ignore[no-untyped-call]  # distributed: unannotated
            except BaseException:
                self._failed = True
                with contextlib.suppress(Exception):
                    self._loop_runner.stop()
                raise

        def __del__(self) -> None:
            if not self._failed:
                super().__del__()  # type: ignore[no-untyped-call]  # distributed: unannotated

    return OneShotClient


def connect(address: str, trust: bool = False, tls: Sequence[str | None] = (None, None, None)) -> Client:
    """A distributed.Client on the scheduler at `address`; ClusterError in one line if the extra
    is not installed, the address breaks the trust model (see `_security`), or the scheduler does
    not answer within CONNECT_SECONDS. The client takes back only msgpack data (never pickle)."""
    try:
        from distributed import Client  # noqa: F401 (is the extra installed?)
    except ImportError:
        raise ClusterError(_("--scheduler needs the cluster extra: pip install 'countlo[cluster]' "
                             "(dask and distributed)")) from None
    from distributed.comm.addressing import parse_address, parse_host_port

    try:  # a malformed address fails here, before a Client exists
        scheme, where = parse_address(address)
        if scheme not in ("tcp", "tls"):
            raise ValueError(_("countlo connects over tcp:// or tls:// only, not {scheme}://").format(scheme=scheme))
        host, _port = parse_host_port(where)
    except (ValueError, TypeError) as e:
        raise ClusterError(_("--scheduler {address!r} is not a scheduler address like "
                             "tcp://10.0.0.5:8786: {error}").format(address=address, error=e)) from None
    security = _security(address, scheme, host, trust, tls)
    try:
        return _client_class()(address, timeout=CONNECT_SECONDS, set_as_default=False, security=security,
                               deserializers=["msgpack"])  # results are JSON text: no pickle taken back
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        why = " ".join(str(e).split()) or type(e).__name__
        raise ClusterError(_("cannot reach the Dask scheduler at {address}: {why}").format(
            address=address, why=why)) from None


def _portable(args: argparse.Namespace) -> argparse.Namespace:
    """The options a worker needs, without the command's own functions."""
    return argparse.Namespace(**{k: v for k, v in vars(args).items() if not callable(v)})


def _threads(client: Client) -> int:
    return sum(client.nthreads().values())


def play_on_cluster(client: Client, args: argparse.Namespace, shape: Shape,
                    seeds: Sequence[int]) -> Generator[Game, None, None]:
    """Games on the cluster of `client` (from connect) as (seed, records.Played, JSON record),
    each checked as plain data before it is believed, yielded as they finish (not in seed
    order); the client is closed when the generator ends or is closed."""
    from distributed import as_completed

    from countlo import i18n
    from countlo.cli.records import from_plain
    from countlo.cli.workers import play_plain

    assert client.scheduler is not None, "connect returns a client that reached its scheduler"
    address = client.scheduler.address
    portable = _portable(args)
    run = uuid.uuid4().hex[:12]  # task keys unique to this run: other runs may share the scheduler
    todo = iter(seeds)
    running = as_completed(loop=client.loop)
    in_flight: dict[Future[str], int] = {}

    def hand_out() -> None:
        ahead = max(AHEAD_LEAST, AHEAD_PER_THREAD * _threads(client))
        while len(in_flight) < ahead:
            seed = next(todo, None)
            if seed is None:
                return
            future = client.submit(play_plain, portable, seed, i18n.language(), key=f"countlo-{run}-{seed}",
                                   pure=False)
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
                text = future.result()
            except ImportError as e:  # the worker's Python has no countlo (or another version)
                raise ClusterError(_("a Dask worker could not play seed {seed}: {error} (install countlo "
                                     "on every worker, the same version as here)").format(seed=seed, error=e)) from None
            except TypeError as e:  # Dask refused a pickled reply: see connect
                raise ClusterError(_("a Dask worker sent seed {seed}'s result as something other than "
                                     "plain data ({error}); only plain game records are accepted from the "
                                     "cluster").format(seed=seed, error=" ".join(str(e).split())[:200])) from None
            except Exception as e:
                if type(e).__name__ != "KilledWorker":
                    raise
                raise ClusterError(_("the Dask workers died playing seed {seed}: {error}").format(
                    seed=seed, error=e)) from None
            played, record = from_plain(text, shape, seed)
            yield seed, played, record
            hand_out()
    finally:
        if in_flight:
            client.cancel(list(in_flight))
        client.close(timeout=CONNECT_SECONDS)
