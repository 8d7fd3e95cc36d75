"""The rules a board is played under, in the language spoken: what Rules.describe() and
Graph.describe() say in English ('torus, x rule, 3 states, target lit'), here worded from their
facts so a Chinese header reads in Chinese. Rule names (plus, x, knight, ...) are what the user
types, so they stay as they are."""

from __future__ import annotations

import re

from countlo.i18n import N_, _, ngettext

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.graph import Graph
    from countlo.pressmap import PressMap
    from countlo.rules import Rules

TOPOLOGIES = {"plane": N_("plane"), "cylinder": N_("cylinder"), "torus": N_("torus"),
              "moebius": N_("moebius"), "klein": N_("klein"), "projective": N_("projective")}


def rules_text(rules: Rules, target: bool = False) -> str:
    """'torus, x rule, 3 states, target lit' (Rules.describe) in the language spoken; `target`
    names the target even when it is the default dark one (to tell two rule sets apart)."""
    parts = [_(TOPOLOGIES.get(rules.topology, rules.topology)),
             _("{name} rule").format(name=rules.rule.name)]
    if rules.states != 2:
        parts.append(ngettext("{n} state", "{n} states", rules.states).format(n=rules.states))
    if rules.target != "dark" or target:
        parts.append(_("target {target}").format(target=rules.target))
    return _(", ").join(parts)


def press_map_text(board: PressMap) -> str:
    """"press map of 3 buttons and 2 lights" or "Merlin's Magic Square", with the states; a grid
    with holes as "5x5 board with 2 holes (torus, plus rule)"."""
    if board.rules is not None and board.grid is not None:
        n = len(board.holes)
        return ngettext("{rows}x{cols} board with {n} hole ({rules})", "{rows}x{cols} board with {n} holes ({rules})",
                        n).format(rows=board.grid[0], cols=board.grid[1], n=n, rules=rules_text(board.rules))
    if board.preset == "merlin":
        parts = [_("Merlin's Magic Square")]
    else:
        parts = [_("press map of {buttons} and {lights}").format(
            buttons=ngettext("{n} button", "{n} buttons", board.presses).format(n=board.presses),
            lights=ngettext("{n} light", "{n} lights", board.cells).format(n=board.cells))]
    if board.states != 2:
        parts.append(ngettext("{n} state", "{n} states", board.states).format(n=board.states))
    return _(", ").join(parts)


def graph_text(graph: Graph) -> str:
    """'graph of 5 nodes and 4 edges, sigma+' (Graph.describe) in the language spoken."""
    nodes, edges = len(graph.nodes), len(graph.edges)
    parts = [_("graph of {nodes} and {edges}").format(
        nodes=ngettext("{n} node", "{n} nodes", nodes).format(n=nodes),
        edges=ngettext("{n} edge", "{n} edges", edges).format(n=edges)), graph.rule]
    if graph.arcs:
        parts[0] = _("directed graph of {nodes}, {edges} and {arcs}").format(
            nodes=ngettext("{n} node", "{n} nodes", nodes).format(n=nodes),
            edges=ngettext("{n} edge", "{n} edges", edges).format(n=edges),
            arcs=ngettext("{n} arc", "{n} arcs", len(graph.arcs)).format(n=len(graph.arcs)))
    if graph.states != 2:
        parts.append(ngettext("{n} state", "{n} states", graph.states).format(n=graph.states))
    return _(", ").join(parts)


def method_words(text: str) -> str:
    """The method of a --most result in the language spoken."""
    m = re.fullmatch(r"all 2\^(\d+) cosets", text)
    if m:
        return _("all 2^{n} cosets").format(n=m.group(1))
    m = re.fullmatch(r"all (\d+)\^(\d+) press vectors", text)
    if m:
        return _("all {k}^{n} press vectors").format(k=m.group(1), n=m.group(2))
    return _(text)
