"""The rule options shared by `play`, `simulate` and `replay`: --topology, --rule, --states and
--target, turned into the Rules a Shape carries."""

from __future__ import annotations

import argparse

from countlo.errors import BadRuleError
from countlo.i18n import _


def add_rule_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--topology", metavar="NAME",
                   help=_("plane (default), cylinder, torus, moebius, klein or projective"))
    p.add_argument("--rule", metavar="NAME|FILE",
                   help=_("click rule: plus (default), x, star, ring, knight, rowcol, or a FILE "
                          "drawing it (# changed, . unchanged, O the centre changed, o unchanged)"))
    p.add_argument("--states", type=int, metavar="K",
                   help=_("light states; the hidden game needs 2 (the count model)"))
    p.add_argument("--target", choices=("dark", "lit"),
                   help=_("the game ends with every light out (dark, default) or on (lit)"))


def given(args: argparse.Namespace) -> bool:
    """True if any rule option was given."""
    return any(getattr(args, k, None) is not None for k in ("topology", "rule", "states", "target"))


def rules_of(args: argparse.Namespace):  # -> countlo.rules.Rules
    """The Rules the options ask for (the classic game where an option is left out)."""
    from countlo.cli.solve_rules import rule_of
    from countlo.rules import Rules

    if args.states is not None and args.states != 2:
        raise BadRuleError(_("--states {k}: the hidden game needs two states (a click changes the count "
                             "by |N| - 2 x the lit cells of N, which needs lights that are either on "
                             "or off); use 'countlo solve --states'").format(k=args.states))
    return Rules.make(args.topology or "plane", rule_of(args.rule), 2, args.target or "dark")
