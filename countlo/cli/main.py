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

from countlo import __version__, i18n
from countlo.cli import speech
from countlo.errors import CountloError
from countlo.i18n import N_, _

COMMANDS: dict[str, str] = {  # translated where shown
    "play": N_("guided session: type the counts the game shows, get the next click (--sim to try "
               "it)"),
    "simulate": N_("play many seeded games (simulated board or a game program) and report probes, "
                   "clicks and times"),
    "replay": N_("rebuild the hidden start from a transcript, explain each step, and plan the "
                 "finish"),
    "solve": N_("solve a visible Lights Out board: one, all or fewest presses, symmetry classes, "
                "pattern to pattern"),
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2, speaking the chosen language
    (see countlo.cli.speech)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", speech.HelpFormatter)
        super().__init__(*args, **kwargs)
        self.add_argument("--lang", choices=tuple(i18n.LANGUAGES), metavar="zh|en",
                          help=_("language of the messages: zh (Chinese) or en (English); default: "
                                 "LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English"))

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(_("{prog}: {message} (see '{prog} --help')").format(
            prog=self.prog, message=message) + "\n")
        raise SystemExit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, the arguments of that one subcommand are added and no other
    command module is imported."""
    parser = _Parser(
        prog="countlo",
        description=_("Companion for CountLightsOut and a complete Lights Out solver."),
    )
    parser.add_argument("--version", action="version", version=f"countlo {__version__}",
                        help=_("show the version and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                                title=_("commands"))
    for name, message in COMMANDS.items():
        text = _(message)
        p = sub.add_parser(name, help=text, description=text)
        if only is None or name == only:
            module = importlib.import_module(f"countlo.cli.{name}")
            module.add_arguments(p)
            p.set_defaults(_run=module.run)
    return parser


def _asked(argv: list[str]) -> str | None:
    """The subcommand named on the command line (the first argument that is not an option or
    the value of --lang)."""
    after_lang = False
    for a in argv:
        if after_lang:
            after_lang = False
            continue
        if a == "--lang":
            after_lang = True
        elif not a.startswith("-"):
            return a if a in COMMANDS else None
    return None


def _lang(argv: list[str]) -> str | None:
    """The language --lang asks for (before the command or after it), if it names one we speak;
    argparse reports a bad value later, in the environment's language."""
    for i, a in enumerate(argv):
        if a == "--":
            break
        value = argv[i + 1] if a == "--lang" and i + 1 < len(argv) else \
            a.partition("=")[2] if a.startswith("--lang=") else None
        if value in i18n.LANGUAGES:
            return value
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    i18n.use(_lang(argv))
    speech.speak()
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
        sys.stderr.write("\n" + _("interrupted") + "\n")
        return 130
    except BrokenPipeError:
        return 0
