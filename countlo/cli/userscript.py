"""`countlo userscript`: write the userscript that pairs the game page with `countlo play --listen`."""

from __future__ import annotations

import argparse
import re
import sys

from countlo.errors import CountloError
from countlo.i18n import _, reason


class UserscriptError(CountloError, ValueError):
    """A @match pattern or output file countlo cannot use."""


_PATTERN = re.compile(r"^(\*|https?)://(\*|(\*\.)?[A-Za-z0-9.-]+)(:[0-9]{1,5})?/[!-~]*$")


def match_pattern(text: str) -> str:
    """A userscript @match pattern such as https://example.org/game/* (no spaces)."""
    if not _PATTERN.match(text):
        raise argparse.ArgumentTypeError(_("{text} is not a match pattern like https://example.org/*").format(
            text=text))
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from countlo.cli.play import DEFAULT_PORT, port_number

    def port(text: str) -> int:
        """The port the script calls: 0 (any free port) is for countlo play --listen, not here."""
        value = port_number(text)
        if value == 0:
            raise argparse.ArgumentTypeError(_("the script calls one port, 1-65535, not 0; run countlo play "
                                               "--listen PORT with the same one"))
        return value

    parser.add_argument("--port", type=port, default=DEFAULT_PORT, metavar="PORT", help=_(
        "the port countlo play --listen uses (default {port})").format(port=DEFAULT_PORT))
    parser.add_argument("--match", metavar="PATTERN", action="append", default=[], type=match_pattern,
                        help=_("also run on pages matching PATTERN, e.g. https://example.org/game/* "
                               "(repeat for more)"))
    parser.add_argument("--out", metavar="FILE", help=_("write the script to FILE (default: print it)"))


def run(args: argparse.Namespace) -> int:
    from countlo.ui.userscript import userscript

    text = userscript(args.port, tuple(args.match))
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise UserscriptError(_("cannot write {path}: {reason}").format(path=args.out, reason=reason(e))) from None
    print(_("Wrote {path}: open it in the browser with Violentmonkey, Tampermonkey or Greasemonkey "
            "installed to install it.").format(path=args.out))
    return 0
