"""The pictures the commands draw: what `solve`, `solve --quiet` and `replay` show, as `Picture`s
for `image.save`, under the classic rules and under any grid rules (joined edges, k states), and
the same panels on a graph or a press map that is not a grid (a `network.Network`, drawn by
`netimage`). Titles and notes say in words what the colours show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from countlo.board import Shape
from countlo.formats.image import Panel, Picture, shade
from countlo.formats.network import Network, network_of
from countlo.graph import Board
from countlo.pressmap import PressMap
from countlo.rules import TOPOLOGY_HELP, Rules
from countlo.tokens import counted

QUIET_PANELS = 16  # `solve --quiet --image` draws at most this many basis patterns

LIGHTS = (("lit", "lit"), ("dark", "dark"))


def _count(rows: Sequence[int]) -> int:
    return sum(r.bit_count() for r in rows)


def solved(shape: Shape, start: Sequence[int], presses: Sequence[int],
           target: Sequence[int] | None = None, exact: bool | None = None) -> Picture:
    """The start (and target), and the presses that turn it into the target (all dark if none)."""
    n = _count(presses)
    panels = [Panel(f"start {shape}", start)]
    if target is not None:
        panels.append(Panel("target", target))
    kind = "presses" if exact is None else "fewest presses" if exact else "presses (best found)"
    panels.append(Panel(f"{kind} ({n})", presses, "press", "blank"))
    goal = "turn the start into the target" if target is not None else "turn every light off"
    notes = [f"Pressing each red cell once, in any order, will {goal}."]
    return Picture(shape, panels, LIGHTS + (("press", "press"),), notes)


def unsolvable(shape: Shape, start: Sequence[int], witness: Sequence[int],
               target: Sequence[int] | None = None) -> Picture:
    """The start and the quiet pattern proving that no presses clear it (reach the target)."""
    diff = start if target is None else [a ^ b for a, b in zip(start, target)]
    odd = sum((a & b).bit_count() for a, b in zip(witness, diff))
    panels = [Panel(f"start {shape}", start)]
    if target is not None:
        panels.append(Panel("target", target))
    panels.append(Panel("quiet pattern", witness, "quiet", "blank"))
    what = "lit" if target is None else "differing from the target"
    notes = [(f"Unsolvable. Every press toggles an even number of the violet cells, so the number "
              f"of violet cells {what} never changes parity; it is {odd} now, odd, so it never "
              "reaches 0.")]
    return Picture(shape, panels, LIGHTS + (("quiet", "quiet pattern"),), notes)


def quiet(shape: Shape, basis: Sequence[Sequence[int]]) -> Picture:
    """A basis of the quiet patterns (press sets that change no light)."""
    d = len(basis)
    shown = list(basis[:QUIET_PANELS])
    if not shown:
        return Picture(shape, [Panel(f"{shape}: no quiet pattern", [0] * shape.rows, "quiet",
                                     "blank")],
                       (), [("Nullity 0: no presses but none leave the lights as they are, so "
                             "every start has exactly one solution.")])
    panels = [Panel(f"quiet {i}", q, "quiet", "blank") for i, q in enumerate(shown, 1)]
    more = f" (the first {len(shown)} drawn)" if len(shown) < d else ""
    notes = [(f"{shape} board, nullity {d}{more}: pressing every violet cell of one pattern "
              f"changes no light. The {shape} starts that can be cleared are those with an even "
              "number of lit cells under every pattern, and each has 2^nullity solutions, "
              "differing by sums of these patterns.")]
    return Picture(shape, panels, (("quiet", "pressed by the pattern"),), notes)


def replayed(shape: Shape, start: int, lights: int, finish: int | None, witness: int | None,
             known: str, exact: bool = True) -> Picture:
    """What `replay` found: the hidden start, the lights now, and the clicks that finish (or the
    quiet pattern proving they cannot all be turned off); the goal is the board's (all dark, or
    all lit under a lit target)."""
    lit = lights.bit_count()
    to_go = (lights ^ shape.goal).bit_count()
    panels = [Panel("hidden start", shape.to_rows(start)),
              Panel(f"now ({lit} lit)", shape.to_rows(lights))]
    legend: tuple[tuple[str, str], ...] = LIGHTS
    notes = [known]
    if witness is not None:
        panels.append(Panel("quiet pattern", shape.to_rows(witness), "quiet", "blank"))
        legend += (("quiet", "quiet pattern"),)
        odd = (lights & witness).bit_count()
        notes.append(f"These lights can never all be turned off: every click toggles an even "
                     f"number of the violet cells, and {odd} of them are lit now, an odd number.")
    elif finish is not None and to_go:
        n = finish.bit_count()
        panels.append(Panel(f"to click ({n})", shape.to_rows(finish), "press", "blank"))
        legend += (("press", "click"),)
        fewest = "the fewest possible" if exact else "fewest not proven"
        goal = "on" if shape.goal else "off"
        notes.append(f"Clicking each red cell once turns every light {goal}: {counted(n, 'click')}, {fewest}.")
    elif not to_go:
        notes.append(f"The lights are all {'on' if shape.goal else 'out'}: this game is won.")
    return Picture(shape, panels, legend, notes)


# --- any grid rules: topologies, click rules, k states ---------------------------------------


def drawing(board: Board) -> tuple[Shape | Network, Callable[[Sequence[int]], list[int]], str | None]:
    """What a picture of `board` is drawn on, how a pattern's values land on it (a grid with
    holes: pressmap.HOLE where there is no cell) and the words that replace the grid's rules in
    the title (Merlin's square has no grid rules); a graph, or a press map that is not a grid, is
    laid out as nodes and lines (refused above network.MAX_DRAWN nodes)."""
    if isinstance(board, Shape):
        return board, list, None
    if isinstance(board, PressMap) and board.on_grid and board.grid is not None:
        if board.rules is not None:  # a grid with holes
            return Shape(*board.grid, board.rules), board.expand, None
        states = f", {board.states} states" if board.states > 2 else ""
        what = "Merlin's Magic Square" if board.preset == "merlin" else "own press rule"
        return Shape(*board.grid, Rules(states=board.states)), list, what + states
    return network_of(board), list, None



Drawn = Shape | Network  # what the panels of any rules are drawn on: a grid, or nodes and lines


def _rules_words(shape: Drawn) -> str:
    """'torus, plus rule, 3 states' (what the titles add when the rules are not the classic ones)."""
    if isinstance(shape, Network):
        return shape.words
    r = shape.rules
    states = f", {r.states} states" if r.states > 2 else ""
    return f"{r.topology}, {r.rule.spec()} rule{states}"


def _start_title(shape: Drawn, words: str | None) -> str:
    said = _rules_words(shape) if words is None else words
    return f"start {shape} ({said})" if said else f"start {shape}"


def _states(shape: Drawn) -> int:
    return shape.states if isinstance(shape, Network) else shape.rules.states


def _nouns(shape: Drawn) -> tuple[str, str]:
    """(what is pressed, what is lit) in the notes: cells on a grid, nodes on a graph, buttons
    and lights on a press map."""
    if isinstance(shape, Network):
        return ("button", "light") if shape.buttons else ("node", "node")
    return "cell", "cell"


def _network_note(shape: Drawn) -> list[str]:
    """How a graph or a press map is drawn."""
    if not isinstance(shape, Network):
        return []
    if shape.buttons:
        amounts = " (the number on a line: by how much)" if shape.states > 2 else ""
        return [f"Circles are the lights, small squares the buttons; a line joins a button to each "
                f"light it changes{amounts}."]
    if any(directed for *_ab, directed in shape.links):
        return ["A line is an edge (a click changes both ends); an arrow a -> b is an arc (a click "
                "on a changes b)."]
    return []


def _joins_note(shape: Drawn) -> list[str]:
    """What the coloured outer edges mean on a joined topology."""
    if isinstance(shape, Network):
        return _network_note(shape)
    top = shape.rules.topology
    if top == "plane":
        return []
    return [f"{top.capitalize()}: {TOPOLOGY_HELP[top]}. A teal edge is joined plainly to the "
            "opposite one, a pink edge with a half twist (the opposite edge read the other way)."]


def _holes_note(values: Sequence[int]) -> list[str]:
    """What the white cells are on a grid with holes."""
    n = sum(1 for v in values if v < 0)
    if not n:
        return []
    return [f"The {n} white cell{'s are holes' if n > 1 else ' is a hole'}: no light there, no button, "
            "and no click changes them."]


def _state_legend(k: int, off: str, on: str, what: str) -> tuple[tuple[str, str], ...]:
    """Swatches for the states 0..k-1 of a panel (the two ends and one between when k > 6)."""
    shown = range(k) if k <= 6 else (0, k // 2, k - 1)
    return tuple((shade(off, on, v, k), f"{what} {v}") for v in shown)


def solved_states(shape: Drawn, start: Sequence[int], presses: Sequence[int],
                  target: Sequence[int] | None = None, exact: bool | None = None,
                  words: str | None = None) -> Picture:
    """solved() for any grid rules, a graph or a press map: states and presses per cell (light,
    button) in reading order, a shade per state (presses counted with multiplicity: a cell
    pressed twice is deeper red). `words` replace the rules' in the start's title."""
    k = _states(shape)
    n = sum(v for v in presses if v > 0)  # a hole is -1
    panels = [Panel(_start_title(shape, words), (), values=start, states=k)]
    if target is not None:
        panels.append(Panel("target", (), values=target, states=k))
    kind = "presses" if exact is None else "fewest presses" if exact else "presses (best found)"
    panels.append(Panel(f"{kind} ({n})", (), "press", "blank", values=presses, states=k, buttons=True))
    goal = "turn the start into the target" if target is not None else "turn every light off"
    times = "once" if k == 2 else "as many times as its shade says (legend)"
    notes = [f"Pressing each red {_nouns(shape)[0]} {times}, in any order, will {goal}.", *_holes_note(start),
             *_joins_note(shape)]
    legend = (_state_legend(k, "dark", "lit", "state") + _state_legend(k, "blank", "press", "pressed")
              if k > 2 else LIGHTS + (("press", "press"),))
    return Picture(shape, panels, legend, notes)


def unsolvable_states(shape: Drawn, start: Sequence[int], weights: Sequence[int],
                      target: Sequence[int] | None = None, words: str | None = None) -> Picture:
    """unsolvable() for any grid rules, a graph or a press map: the weights whose weighted sum no
    click changes (for two states, the lights whose parity no press changes)."""
    k = _states(shape)
    press, light = _nouns(shape)
    t = target or [0] * len(start)
    now = sum(w * v for w, v in zip(weights, start) if w > 0 and v > 0) % k  # a hole is -1
    goal = sum(w * v for w, v in zip(weights, t) if w > 0 and v > 0) % k
    panels = [Panel(_start_title(shape, words), (), values=start, states=k)]
    if target is not None:
        panels.append(Panel("target", (), values=target, states=k))
    panels.append(Panel("weights", (), "quiet", "blank", values=weights, states=k))
    click = "click" if press != "button" else "button"
    if k == 2:
        notes = [(f"Unsolvable. Every {click} changes an even number of the violet {light}s, so the number "
                  f"of lit violet {light}s keeps its parity: {now % 2} (mod 2) now, {goal} for the "
                  "target.")]
    else:
        notes = [(f"Unsolvable. Weigh each {light} by its shade of violet (legend); every {click} adds a "
                  f"multiple of {k} to the weighted sum of the states, so that sum mod {k} never "
                  f"changes: it is {now} now and {goal} for the target.")]
    legend = (_state_legend(k, "dark", "lit", "state") + _state_legend(k, "blank", "quiet", "weight")
              if k > 2 else LIGHTS + (("quiet", "proof: how many are lit keeps its parity"),))
    return Picture(shape, panels, legend, notes + _holes_note(start) + _joins_note(shape))


def replayed_states(shape: Drawn, start: Sequence[int], lights: Sequence[int], finish: Sequence[int] | None,
                    witness: Sequence[int] | None, known: str, exact: bool = True, lit_goal: bool = False) -> Picture:
    """replayed() on any board the hidden game plays (Merlin's square, a grid with holes, a graph,
    a press map): the hidden start, the lights now, and the clicks that finish (or the lights whose
    parity no click changes), two states, values per light and per button; the goal all dark, or
    all lit when `lit_goal`."""
    press, light = _nouns(shape)
    lit = sum(v for v in lights if v > 0)  # a hole is -1
    to_go = sum(1 for v in lights if v >= 0 and v != int(lit_goal))
    panels = [Panel("hidden start", (), values=start, states=2), Panel(f"now ({lit} lit)", (), values=lights, states=2)]
    legend: tuple[tuple[str, str], ...] = LIGHTS
    notes = [known]
    if witness is not None:
        panels.append(Panel("quiet pattern", (), "quiet", "blank", values=witness, states=2))
        legend += (("quiet", "proof: how many are lit keeps its parity"),)
        odd = sum(1 for w, v in zip(witness, lights) if w > 0 and v > 0)
        notes.append(f"These lights can never all be turned off: every click changes an even number of the "
                     f"violet {light}s, and {odd} of them are lit now, an odd number.")
    elif finish is not None and to_go:
        n = sum(v for v in finish if v > 0)
        panels.append(Panel(f"to click ({n})", (), "press", "blank", values=finish, states=2, buttons=True))
        legend += (("press", "click"),)
        fewest = "the fewest possible" if exact else "fewest not proven"
        goal = "on" if lit_goal else "off"
        notes.append(f"Clicking each red {press} once turns every light {goal}: {counted(n, 'click')}, {fewest}.")
    elif not to_go:
        notes.append(f"The lights are all {'on' if lit_goal else 'out'}: this game is won.")
    return Picture(shape, panels, legend, notes + _holes_note(start) + _joins_note(shape))


def quiet_states(shape: Drawn, gens: Sequence[Sequence[int]], total: int,
                 words: str | None = None) -> Picture:
    """quiet() for any grid rules, a graph or a press map: generators of the press patterns that
    change nothing (the first QUIET_PANELS of `total`), each cell (button) shaded by how often it
    is pressed."""
    k = _states(shape)
    said = _rules_words(shape) if words is None else words
    rules = f" ({said})" if said else ""
    shown = list(gens[:QUIET_PANELS])
    if not shown:
        buttons = shape.presses if isinstance(shape, Network) else shape.cells
        return Picture(shape, [Panel(f"{shape}: no quiet pattern", (), "quiet", "blank",
                                     values=[0] * buttons, states=k, buttons=True)],
                       (), ["No presses but none leave the lights as they are, so every start has "
                            "exactly one solution.", *_joins_note(shape)])
    panels = [Panel(f"quiet {i}", (), "quiet", "blank", values=q, states=k, buttons=True)
              for i, q in enumerate(shown, 1)]
    more = f" (the first {len(shown)} drawn)" if len(shown) < total else ""
    board = f"{shape} board" if isinstance(shape, Shape) else str(shape)
    notes = [(f"{board}{rules}, {total} generators{more}: pressing the violet "
              f"{_nouns(shape)[0]}s of one pattern (as often as the shade says) changes no light; the "
              "solutions of a start differ by sums of these patterns."), *_joins_note(shape)]
    legend = (_state_legend(k, "blank", "quiet", "pressed") if k > 2 else (("quiet", "pressed by the pattern"),))
    return Picture(shape, panels, legend, notes)
