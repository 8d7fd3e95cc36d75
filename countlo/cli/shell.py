"""`countlo shell`: the shell completion script for bash, zsh or fish, or the manual page, both
generated from countlo's own parsers (argcomplete and argparse-manpage; see docs/CONTRIBUTING.md
for why those libraries)."""

from __future__ import annotations

import argparse
import sys

from countlo.i18n import N_, _

EPILOG = N_("""\
bash:  countlo shell bash > ~/.local/share/bash-completion/completions/countlo
zsh:   countlo shell zsh > "${fpath[1]}/_countlo"  (or: eval "$(countlo shell zsh)" in ~/.zshrc)
fish:  countlo shell fish > ~/.config/fish/completions/countlo.fish
man:   countlo shell man > ~/.local/share/man/man1/countlo.1, then: man countlo
""")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from countlo.cli.speech import keep_lines

    keep_lines(parser, _(EPILOG))
    parser.add_argument("what", choices=("bash", "zsh", "fish", "man"),
                        help=_("the completion script for this shell, or man for the manual page"))


def run(args: argparse.Namespace) -> int:
    if args.what == "man":
        sys.stdout.write(manual())
        return 0
    from argcomplete.shell_integration import shellcode

    sys.stdout.write(shellcode(["countlo"], shell=args.what))
    return 0


def manual() -> str:
    """The manual page (troff) of every command, from the parsers as `--help` shows them."""
    from argparse_manpage.manpage import Manpage

    from countlo import __version__
    from countlo.cli.main import build_parser

    parser = build_parser(None)
    data = {"prog": "countlo", "version": __version__, "project_name": "countlo",
            "description": _("Companion for CountLightsOut and a complete Lights Out solver."),
            "authors": ["the countlo developers"], "url": "", "manual_section": "1",
            "manual_title": "countlo manual"}
    return str(Manpage(parser, _data=data, format="single-commands-section"))
