"""The `countlo` command line: one module per subcommand in this package.

Each command module provides `add_arguments(parser)` and `run(args) -> exit code`; its one-line
help lives in COMMANDS below, so `countlo --help` imports no command module and `countlo solve`
imports and builds only the solve parser (start-up time is measured in bench/bench_startup.py).
Anything heavy (numpy, z3, prompt_toolkit) is imported inside `run`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from countlo import __version__
from countlo.errors import CountloError

COMMANDS: dict[str, str] = {
    "play": "guided session: type the counts the game shows, get the next click (--sim to try it)",
    "simulate": "play many seeded games (simulated board or a game program) and report probes, "
    "clicks and times",
    "replay": "rebuild the hidden start from a transcript, explain each step, and plan the finish",
    "solve": "solve a visible Lights Out board: one, all or fewest presses, symmetry classes, "
    "pattern to pattern",
    "generate": "random solvable boards: uniform, or with a given fewest-press count or "
    "difficulty",
    "practice": "classic Lights Out in the terminal with the lights visible: hints, undo, and "
    "your moves against the fewest",
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message} (see '{self.prog} --help')\n")
        raise SystemExit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, the arguments of that one subcommand are added and no other
    command module is imported."""
    parser = _Parser(
        prog="countlo",
        description="Companion for CountLightsOut and a complete Lights Out solver.",
    )
    parser.add_argument("--version", action="version", version=f"countlo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, text in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        if only is None or name == only:
            module = importlib.import_module(f"countlo.cli.{name}")
            module.add_arguments(p)
            p.set_defaults(_run=module.run)
    return parser


def _asked(argv: list[str]) -> str | None:
    """The subcommand named on the command line (the first argument that is not an option)."""
    for a in argv:
        if not a.startswith("-"):
            return a if a in COMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    only = _asked(argv)
    parser = build_parser(only) if only else build_parser("")
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version and usage errors (already printed)
        return e.code if isinstance(e.code, int) else 2
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except CountloError as e:
        sys.stderr.write(f"countlo {args.command}: {e}\n")
        return e.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return 130
    except BrokenPipeError:
        return 0
