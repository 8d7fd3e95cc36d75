"""`countlo play`: the guided session beside the real game, or against a simulated one (--sim)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from countlo.cli import options
from countlo.errors import CountloError
from countlo.hidden.result import engine_names
from countlo.i18n import _, reason
from countlo.play.strategies.names import strategy_names
from countlo.ui.rulewords import rules_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `play --help` loads neither
if TYPE_CHECKING:  # datetime nor random (bench/bench_startup.py)
    from datetime import datetime

    from countlo.countboard import CountBoard
    from countlo.formats.transcript import Writer
    from countlo.hidden.record import Record
    from countlo.play.oracle import SimulatedOracle
    from countlo.ui.bridge import Bridge
    from countlo.ui.listen import Server
    from countlo.ui.session import Session


class PlayOptionError(CountloError, ValueError):
    """Options of `countlo play` that do not go together."""


DEFAULT_PORT = 47251  # countlo.ui.listen.DEFAULT_PORT, named here so building the parser imports no ui


def port_number(text: str) -> int:
    """A TCP port 0-65535 (0: any free port, printed)."""
    value = options.integer(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(_("a port is 0-65535, not {value}").format(value=value))
    return value


def origin(text: str) -> str:
    """A web page's origin as the browser sends it: scheme://host[:port]."""
    from countlo.ui.bridge import origin_of

    found = origin_of(text)
    if found is None:
        raise argparse.ArgumentTypeError(_("{text} is not an origin like https://example.org").format(text=text))
    return found


MAX_CELLS = 1000
"""Largest board a game is played on: the exact count of the boards still possible is kept in
floating tables, which overflow past 2^1024 boards (a 3x1000 board has 2^3000)."""


def check_size(shape: CountBoard) -> None:
    """Refuse, in one line and before any table is built, a board too large to play."""
    if shape.cells > MAX_CELLS:
        raise PlayOptionError(_("games are played on boards of at most {most} cells; {shape} has {cells}").format(
            most=MAX_CELLS, shape=shape, cells=shape.cells))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = _("At the prompt: a count; C4 or '4 3' (you clicked another cell); C4 17; "
                      "17! (insist); undo (F2 or Esc u); fix STEP COUNT; history; board; help; "
                      "quit. Ctrl-C and Ctrl-D leave too; the transcript is kept and --resume "
                      "carries on.")
    parser.add_argument("--size", metavar="RxC", help=_("board size (default 6x6; a resumed "
                                                        "transcript keeps its own)"))
    parser.add_argument("--strategy", metavar="S", type=str.lower, choices=strategy_names(),
                        help=_("how to choose clicks: {names} (default adaptive)").format(
                            names=", ".join(strategy_names())))
    parser.add_argument("--engine", metavar="E", type=str.lower, choices=engine_names(),
                        help=_("reconstruction engine: {names} (default exact)").format(
                            names=", ".join(engine_names())))
    parser.add_argument("--transcript", metavar="FILE", help=_(
        "write the transcript here (default: a new dated file under $XDG_DATA_HOME/countlo or "
        "~/.local/share/countlo)"))
    parser.add_argument("--resume", metavar="FILE", nargs="?", const="", help=_(
        "carry on the session saved in FILE (no FILE: the latest transcript in the default folder)"))
    parser.add_argument("--sim", action="store_true",
                        help=_("play against a simulated hidden board"))
    parser.add_argument("--seed", type=options.integer, metavar="K", help=_(
        "seed of the simulated board (default: a random one, printed)"))
    parser.add_argument("--plain", action="store_true",
                        help=_("plain lines even in a terminal (no full prompt, no colour)"))
    parser.add_argument("--listen", metavar="PORT", nargs="?", const=-1, type=port_number, help=_(
        "also take the clicks and counts from the game page, through the userscript (countlo "
        "userscript), on 127.0.0.1:PORT (default {port})").format(port=DEFAULT_PORT))
    parser.add_argument("--origin", metavar="URL", action="append", default=[], type=origin, help=_(
        "with --listen: accept only pages from this origin (e.g. https://example.org; repeat for more)"))
    parser.add_argument("--approve", metavar="URL", action="append", default=[], type=origin, help=_(
        "with --listen: pages from this origin pair without the code (for scripted use)"))
    parser.add_argument("--background", choices=("light", "dark"), type=str.lower, metavar="LIGHT|DARK", help=_(
        "the terminal's background, for readable colours (default: what COLORFGBG says, else dark)"))
    from countlo.cli.rules_args import add_rule_arguments

    add_rule_arguments(parser)


def data_dir(environ: dict[str, str] | None = None) -> Path:
    """Where transcripts go by default: $XDG_DATA_HOME/countlo, else ~/.local/share/countlo."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "share")
    return Path(base) / "countlo"


def default_path(shape: CountBoard, sim: bool, now: datetime | None = None,
                 environ: dict[str, str] | None = None) -> Path:
    """A new transcript path named by date and time, e.g. 2026-11-21-174502-6x6.txt."""
    folder = data_dir(environ)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlayOptionError(_("cannot create {folder} for the transcript: {reason}; choose a "
                                "file with --transcript").format(folder=folder,
                                                                  reason=reason(e))) from None
    from datetime import datetime

    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    name = f"{stamp}-{shape}{'-sim' if sim else ''}"
    path, n = folder / f"{name}.txt", 1
    while path.exists():
        n += 1
        path = folder / f"{name}-{n}.txt"
    return path


def latest(environ: dict[str, str] | None = None) -> Path:
    """The most recently written transcript in the default folder (for --resume without FILE)."""
    folder = data_dir(environ)
    found = sorted(folder.glob("*.txt"), key=lambda p: p.stat().st_mtime) if folder.is_dir() else []
    if not found:
        raise PlayOptionError(_("--resume without FILE carries on the latest transcript in {folder}, "
                                "but there is none; name the file").format(folder=folder))
    return found[-1]


def _replay(oracle: SimulatedOracle, record: Record) -> None:
    """Make a resumed simulated game's clicks again, checking each count the transcript holds."""
    if oracle.start() != record.start:
        raise PlayOptionError(_("the transcript starts with {start} lit but the simulated board "
                                "of seed {seed} has {count}").format(
            start=record.start, seed=oracle.seed, count=oracle.start()))
    for i, s in enumerate(record.steps, 1):
        got = oracle.click(s.cell)
        if got != s.count:
            raise PlayOptionError(_("step {step}: the simulated board of seed {seed} shows {got} "
                                    "after {cell}, the transcript says {count}").format(
                step=i, seed=oracle.seed, got=got, cell=record.shape.name(s.cell), count=s.count))


def open_session(args: argparse.Namespace) -> tuple[Session, Writer | None]:
    """The Session the options describe, with its transcript open (new or resumed); a simulated
    game keeps one only when --transcript asks (it can be played again from its seed)."""
    from countlo.board import Shape
    from countlo.formats.transcript import Header, Writer
    from countlo.hidden.posterior.frontier import check_supported
    from countlo.play.guide import Guide
    from countlo.play.oracle import SimulatedOracle
    from countlo.ui.session import Session

    if args.resume == "":
        args.resume = str(latest())
    if args.resume and args.transcript:
        raise PlayOptionError(_("--resume FILE already names the transcript; leave out "
                                "--transcript"))
    if args.seed is not None and not args.sim and not args.resume:
        raise PlayOptionError(_("--seed chooses the simulated board; use it with --sim"))
    from countlo.cli.rules_args import given, hidden_board, rules_of

    if args.resume:
        # everything is checked (size, rules, seed, the simulated board's counts) before the
        # file is reopened: a refused resume leaves it as it was, unfinished last line included
        found = Writer.examine(args.resume)
        transcript = found.transcript
        header = transcript.header
        check_supported(header.shape)
        check_size(header.shape)
        played = header.shape
        if not isinstance(played, Shape):  # a press board: its header says it all
            if args.size or given(args):
                raise PlayOptionError(_("{file} is played on {board}; leave out the board and rule options to "
                                        "resume it").format(file=args.resume, board=played))
        elif args.size and Shape.parse(args.size) != Shape(played.rows, played.cols):
            raise PlayOptionError(_("{file} is a {shape} game, not {size}").format(
                file=args.resume, shape=played, size=args.size))
        elif given(args) and rules_of(args) != played.rules:
            raise PlayOptionError(_("{file} is played under {rules}; leave out the rule options to resume "
                                    "it").format(file=args.resume, rules=rules_text(played.rules)))
        simulated = dict(header.extra).get("game", "").startswith("simulated")
        strategy = args.strategy or header.strategy or "adaptive"
        engine = args.engine or header.engine or "exact"
        if transcript.record is None:
            guide = Guide(header.shape, strategy, engine)
        else:
            guide = Guide.from_record(transcript.record, strategy, engine)
        oracle = None
        if simulated or args.sim:
            seed = header.seed if args.seed is None else args.seed
            if seed is None:
                raise PlayOptionError(_("{file} names no seed for its simulated board").format(
                    file=args.resume))
            oracle = SimulatedOracle(header.shape, seed)
            if transcript.record is not None:
                _replay(oracle, transcript.record)
        label = _("simulated game, seed {seed}").format(seed=oracle.seed) if oracle else ""
        writer = Writer.reopen(args.resume, found)[0]
        return Session(guide, writer, oracle, where=str(args.resume), label=label), writer
    shape = hidden_board(args)
    check_supported(shape)
    check_size(shape)
    strategy, engine = args.strategy or "adaptive", args.engine or "exact"
    guide = Guide(shape, strategy, engine)
    oracle = None
    extra = {}
    if args.sim:
        import random

        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        oracle = SimulatedOracle(shape, seed)
        extra["game"] = f"simulated (countlo play --sim --seed {seed})"
    label = _("simulated game, seed {seed}").format(seed=oracle.seed) if oracle else ""
    if oracle is not None and not args.transcript:
        return Session(guide, None, oracle, label=label), None
    path = Path(args.transcript) if args.transcript else default_path(shape, args.sim)
    header = Header.new(shape, strategy, oracle.seed if oracle else None, engine, **extra)
    writer = Writer.create(str(path), header)
    return Session(guide, writer, oracle, where=str(path), label=label), writer


def next_path(transcript: str | None, shape: CountBoard, n: int) -> Path:
    """Where game `n` (2, 3, ...) of a --listen session goes: beside the first game's
    --transcript FILE as FILE-n.txt, else a new dated file."""
    if transcript:
        first = Path(transcript)
        path = first.with_name(f"{first.stem}-{n}{first.suffix}")
        while path.exists():
            n += 1
            path = first.with_name(f"{first.stem}-{n}{first.suffix}")
        return path
    return default_path(shape, False)


def run(args: argparse.Namespace) -> int:
    from countlo.ui.terminal import interactive, light_background, run_lines, run_terminal, wants_colour

    if args.listen is None and (args.origin or args.approve):
        raise PlayOptionError(_("--origin and --approve go with --listen"))
    if args.listen is not None and args.sim:
        raise PlayOptionError(_("--listen takes the counts from the game page; leave out --sim"))
    from countlo.cli.rules_args import is_preset

    board = next((o for o, v in (("--graph", args.graph), ("--buttons", args.buttons), ("--holes", args.holes),
                                 ("--rule merlin", is_preset(args.rule) or None)) if v is not None), None)
    if args.listen is not None and board is not None:  # before any transcript is created
        raise PlayOptionError(_("--listen follows the game page's grid, not {board}").format(board=board))
    first = args.transcript
    session, writer = open_session(args)
    bridge = server = None
    try:
        if args.listen is not None:
            bridge, server = listen(args, session)
        games = 1
        while True:
            try:
                if interactive(sys.stdin, sys.stdout) and not args.plain:
                    run_terminal(session, colour=wants_colour(sys.stdout), bridge=bridge,
                                 light=light_background(args.background))
                else:
                    run_lines(session, sys.stdin, sys.stdout, bridge=bridge)
                again = bridge is not None and (bridge.restart or (session.guide.done and next_game(bridge, session)))
            finally:
                if writer is not None:
                    writer.close()
                    if not writer.worth_keeping:  # left before the first click: nothing to resume
                        Path(writer.path).unlink(missing_ok=True)
            if not again or bridge is None:
                break
            games += 1
            bridge.restart = False
            args.resume, args.transcript = None, str(next_path(first, session.shape, games))
            session, writer = open_session(args)
    finally:
        if server is not None:
            server.shutdown()
    return 1 if session.unclearable else 0  # a simulated start no click can clear is not a win


def listen(args: argparse.Namespace, session: Session) -> tuple[Bridge, Server]:
    """Start the bridge and its server; say where, and the pairing code."""
    import shutil

    from countlo.board import Shape
    from countlo.ui.bridge import Bridge
    from countlo.ui.layout import fit
    from countlo.ui.listen import DEFAULT_PORT as PORT
    from countlo.ui.listen import serve
    from countlo.ui.picture import plain

    if not isinstance(session.shape, Shape):
        raise PlayOptionError(_("--listen follows the game page's grid, not {board}").format(board=session.shape))
    bridge = Bridge(session.shape, tuple(args.origin), tuple(args.approve))
    server = serve(bridge, PORT if args.listen == -1 else args.listen)
    said = _("Listening for the game page on 127.0.0.1:{port}; pairing code: {code}").format(
        port=server.server_address[1], code=bridge.code) + "\n"
    if args.approve:
        said += _("Pages from {origins} pair without the code.").format(origins=", ".join(args.approve)) + "\n"
    sys.stdout.write(plain(fit([("", said)], shutil.get_terminal_size().columns)))
    sys.stdout.flush()
    return bridge, server


def next_game(bridge: Bridge, session: Session) -> bool:
    """After a solved game: wait for the page to start the next one (True), or Ctrl-C (False)."""
    print(_("Waiting for the page's next game (Ctrl-C leaves)."))
    sys.stdout.flush()
    try:
        while not bridge.restart:
            if bridge.wait_for_work(1.0):
                said = bridge.take(session)
                if said:
                    from countlo.ui.picture import plain

                    print(plain(said), end="")
                    sys.stdout.flush()
    except KeyboardInterrupt:
        return False
    return True
