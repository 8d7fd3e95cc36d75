"""The `countlo` command line: one subcommand per module in countlo.commands.

Each command module provides HELP (one line), add_arguments(parser) and run(args) -> exit code,
and imports anything heavy (z3, prompt_toolkit) inside run(), so `countlo solve` stays quick.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from countlo import __version__
from countlo.errors import CountloError

ORDER = ("play", "simulate", "replay", "solve")


def command_names() -> list[str]:
    """The subcommands present in countlo.commands, in a fixed order."""
    import countlo.commands as pkg

    found = {m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")}
    return [n for n in ORDER if n in found] + sorted(found - set(ORDER))


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message} (see '{self.prog} --help')\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="countlo",
        description="Companion for CountLightsOut and a complete Lights Out solver.",
    )
    parser.add_argument("--version", action="version", version=f"countlo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in command_names():
        module = importlib.import_module(f"countlo.commands.{name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
