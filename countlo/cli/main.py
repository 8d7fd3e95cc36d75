"""The `countlo` command line: one module per subcommand in this package.

Each command module provides `add_arguments(parser)` and `run(args) -> exit code`; its one-line
help lives in COMMANDS below, so `countlo --help` imports no command module and `countlo solve`
imports and builds only the solve parser (start-up time is measured in bench/bench_startup.py).
Anything heavy (numpy, z3, prompt_toolkit) is imported inside `run`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from countlo import __version__, i18n
from countlo.cli import speech
from countlo.errors import CountloError
from countlo.formats.output import together
from countlo.i18n import N_, _
from countlo.printable import Printable, printable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

COMMANDS: dict[str, str] = {  # translated where shown
    "play": N_("guided session: type the counts the game shows, get the next click (--sim to try "
               "it)"),
    "simulate": N_("play many seeded games (simulated board or a game program) and report probes, "
                   "clicks and times"),
    "replay": N_("rebuild the hidden start from a transcript, explain each step, and plan the "
                 "finish"),
    "solve": N_("solve a visible Lights Out board: one, all or fewest presses, classes up to "
                "symmetry, or the presses turning one pattern into another (--to)"),
    "generate": N_("random solvable boards: uniform, or with a given fewest-press count or "
                   "difficulty"),
    "userscript": N_("write the userscript that pairs the game page with 'countlo play --listen'"),
    "practice": N_("classic Lights Out in the terminal with the lights visible: hints, undo, and "
                   "your moves against the fewest"),
    "shell": N_("shell completion for bash, zsh or fish, or the manual page: countlo shell bash|zsh|fish|man"),
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2, speaking the chosen language
    (see countlo.cli.speech)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", speech.HelpFormatter)
        super().__init__(*args, **kwargs)
        self.add_argument("--lang", choices=tuple(i18n.LANGUAGES), metavar="zh|en",
                          help=_("language of the messages: zh (Chinese) or en (English); default: "
                                 "LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English"))

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(_("{prog}: {message} (see '{prog} --help')").format(
            prog=self.prog, message=printable(message)) + "\n")
        raise SystemExit(2)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse builds a formatter for every add_argument, and without a width each one
        # imports shutil (and with it zlib, bz2, lzma) to ask for the terminal size.
        formatter: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return formatter(prog=self.prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal width as shutil.get_terminal_size finds it: $COLUMNS, the terminal, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    stream = sys.__stdout__
    try:
        return (os.get_terminal_size(stream.fileno()).columns if stream else 0) or 80
    except (ValueError, OSError):
        return 80


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser. With `only` a command name, just that subcommand is built (with its
    arguments) and no other command module is imported; with `only=""`, every subcommand is
    listed without arguments (for `countlo --help` and unknown commands); with None, all of
    them are built in full."""
    parser = _Parser(
        prog="countlo",
        description=_("Companion for CountLightsOut and a complete Lights Out solver."),
    )
    # argparse's own help for --version is not looked up in a catalogue: say it through ours
    parser.add_argument("--version", action="version", version=f"countlo {__version__}",
                        help=_("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, message in COMMANDS.items():
        if only and name != only:
            continue
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


def _help(argv: list[str]) -> list[str] | None:
    """`countlo help [COMMAND]` as the argv of `countlo [COMMAND] --help`, else None."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] != "help" or argv[0] != "help":
        return None
    if len(argv) == 1:
        return ["--help"]
    if len(argv) == 2:
        return [argv[1], "--help"]
    return None


ASCII_FALLBACK = str.maketrans({"·": "|", "×": "x", "…": "...", "→": "->", "–": "-", "—": "-",
                                "’": "'", "‘": "'", "“": '"', "”": '"', "≈": "~", "±": "+-"})


class _Fallback:
    """A text stream whose encoding lacks countlo's few non-ASCII characters (say
    PYTHONIOENCODING=ascii): they are written as ASCII look-alikes, anything else as '?'."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(text.translate(ASCII_FALLBACK))

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _fallback(stream: TextIO) -> TextIO | None:
    """A _Fallback for `stream` if its encoding cannot write '·' (None if it can, or has none)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return None
    try:
        "·×…→".encode(encoding)
        return None
    except (UnicodeEncodeError, LookupError):
        pass
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    return _Fallback(stream)  # type: ignore[return-value]


class StdoutError(CountloError):
    """Standard output cannot be written (a full disk, /dev/full): one line on stderr, exit 2."""


class _Checked:
    """Standard output whose write errors (other than a closed pipe) are one StdoutError."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def _guard(self, do: Callable[[], int | None]) -> int | None:
        try:
            return do()
        except BrokenPipeError:
            raise
        except OSError as e:
            _discard_stdout()
            raise StdoutError(_("cannot write standard output: {reason}").format(reason=i18n.reason(e))) from None

    def write(self, text: str) -> int:
        return self._guard(lambda: self._stream.write(text)) or 0

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _discard_stdout() -> None:
    """After a write error, what is still buffered for stdout goes nowhere: otherwise Python's
    own flush at exit fails again and prints 'Exception ignored ... OSError'."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    saved = sys.stdout, sys.stderr
    # everything printed passes countlo.printable: a graph file's node name or a game program's
    # stderr cannot retitle or clear the terminal (prompt_toolkit writes its screen beneath)
    out: Any = Printable(_fallback(sys.stdout) or sys.stdout)
    if not _isatty(out):  # a terminal does not fill up
        out = _Checked(out)
    sys.stdout, sys.stderr = out, Printable(_fallback(sys.stderr) or sys.stderr)
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C while starting up (imports, the parser), before a command runs
        sys.stderr.write("\n" + _("interrupted") + "\n")
        return 130
    finally:
        sys.stdout, sys.stderr = saved


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _parser_of(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The subcommand's parser (so an unknown option is reported as `countlo solve: ...` with
    'countlo solve --help'), or `parser` itself when no command was given."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            chosen: argparse.ArgumentParser = action.choices[command]
            return chosen
    return parser


def _empty(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The first option (or argument) given an empty string, if any."""
    for action in parser._actions:
        if getattr(args, action.dest, None) == "":
            return action.option_strings[0] if action.option_strings else str(action.metavar or action.dest)
    return None


def _complete() -> None:
    """Answer a completing shell and exit (argcomplete's protocol: the request is in the
    environment, the answer goes to a file descriptor the shell opened), from the full parser."""
    from argcomplete.finders import CompletionFinder

    CompletionFinder()(build_parser(None))


def _main(argv: list[str] | None = None) -> int:
    if "_ARGCOMPLETE" in os.environ:  # the shell asks what may come next (countlo shell bash|zsh|fish)
        _complete()
    argv = sys.argv[1:] if argv is None else list(argv)
    i18n.use(_lang(argv))
    speech.speak()
    argv = _help(argv) or argv
    only = _asked(argv)
    parser = build_parser(only) if only else build_parser("")
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # named by the subcommand's parser, which argparse.parse_args would not do
            _parser_of(parser, getattr(args, "command", None)).error(
                _("unrecognized arguments: %s") % " ".join(extra))
    except SystemExit as e:  # --help, --version, or a usage error already printed as one line
        return e.code if isinstance(e.code, int) else 2
    empty = _empty(_parser_of(parser, getattr(args, "command", None)), args)
    if empty is not None:  # '--records ""' is a mistake (a script's unset variable), not "no file"
        try:
            _parser_of(parser, args.command).error(_("{option} was given an empty value").format(option=empty))
        except SystemExit:
            return 2
    if not getattr(args, "_run", None):  # bare `countlo`: usage on stderr, one line saying why
        sys.stderr.write(f"countlo: no command given: choose one of {', '.join(COMMANDS)} "
                         "(see 'countlo --help', or 'countlo help COMMAND')\n")
        return 2
    try:
        with together():  # output files are renamed into place only if the command gets through
            code = int(args._run(args) or 0)
        sys.stdout.flush()  # a full disk is said here, in one line, not by Python at exit
        return code
    except CountloError as e:
        sys.stderr.write(f"countlo {args.command}: {printable(str(e))}\n")  # one line, whatever it quotes
        return e.exit_code
    except MemoryError:  # a last guard: the known large requests are refused before this
        sys.stderr.write(f"countlo {args.command}: " + _("not enough memory for this request") + "\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n" + _("interrupted") + "\n")
        return 130
    except BrokenPipeError:
        return 0
