"""The pictures the commands draw: what `solve`, `solve --quiet` and `replay` show, as `Picture`s
for `image.save`. Titles and notes say in words what the colours show.
"""

from __future__ import annotations

from collections.abc import Sequence

from countlo.board import Shape
from countlo.formats.image import Panel, Picture

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
    quiet pattern proving they cannot all be turned off)."""
    lit = lights.bit_count()
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
    elif finish is not None and lit:
        n = finish.bit_count()
        panels.append(Panel(f"to click ({n})", shape.to_rows(finish), "press", "blank"))
        legend += (("press", "click"),)
        fewest = "the fewest possible" if exact else "fewest not proven"
        notes.append(f"Clicking each red cell once turns every light off: {n} clicks, {fewest}.")
    elif not lit:
        notes.append("The lights are all out: this game is won.")
    return Picture(shape, panels, legend, notes)
