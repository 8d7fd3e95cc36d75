"""The screen and conversation of `countlo practice`: classic Lights Out with the lights shown.

`PracticeSession` speaks the same interface as the guided session of `play` (greeting, prompt,
toolbar, check, handle, leave, words, over), so the same front ends run it: prompt_toolkit in a
terminal (with the mouse: every cell of the drawn board is clickable) and plain lines for pipes.
The game itself is countlo.visible.practice.Practice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from countlo.board import Vector, column_letters
from countlo.errors import CountloError
from countlo.rules import RULE_HELP, TOPOLOGY_HELP
from countlo.ui.picture import DARK, LIT, Fragments
from countlo.visible.practice import Practice

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
    from prompt_toolkit.mouse_events import MouseEvent

Drawn = list[tuple[tuple[str, str], str | None]]  # (style, text) fragments, each with the name of
# the cell it draws (None: a label or a line end), so a front end can make the cells clickable

WORDS = {"hint": "hint", "h": "hint", "?": "hint", "undo": "undo", "u": "undo", "back": "undo",
         "help": "help", "board": "board", "b": "board", "quit": "quit", "q": "quit",
         "exit": "quit"}

HELP = """\
{goal}
{rule}
  C4, 4 3   click a cell by name or by row and column, or with the mouse
  hint      one click of a fewest-click way to finish from here
  undo      take back the last click ({keys})
  board     show the board again
  quit      leave (Ctrl-C and Ctrl-D too)
"""


class PracticeError(CountloError):
    """A line that is not a cell on this board or a practice command."""


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class PracticeSession:
    """One practice game as text in, formatted fragments out (no terminal)."""

    def __init__(self, game: Practice, label: str = "", keys: str = "F2", goal: str = "dark"):
        """`goal`: dark, lit, or the target's file name."""
        self.game, self.shape, self.label, self.keys = game, game.shape, label, keys
        self.goal = goal
        self.hinted: int | None = None  # the cell the last hint named, bracketed on the board
        self.hints = 0
        self.over = game.won
        self.on_click: Callable[[str], None] | None = None  # set by a mouse-aware front end

    # --- reading a line -----------------------------------------------------------------
    def parse(self, text: str) -> tuple[str, int | None]:
        """(verb, cell) of a typed line; PracticeError (one line) if it means nothing here."""
        words = text.strip().lower().split()
        if not words:
            return "board", None
        if len(words) == 1 and words[0] in WORDS:
            return WORDS[words[0]], None
        try:
            return "click", self.shape.parse_cell(text)
        except CountloError as e:
            if words[0][0].isalpha() and not any(ch.isdigit() for ch in text):
                raise PracticeError(f"{text.strip()!r} is not a cell like C4 or a command "
                                    "(hint, undo, help, quit)") from None
            raise PracticeError(str(e)) from None

    def check(self, text: str) -> str | None:
        try:
            verb, _ = self.parse(text)
        except CountloError as e:
            return str(e)
        if verb == "undo" and not self.game.clicks:
            return "nothing to undo yet"
        return None

    def handle(self, text: str) -> Fragments:
        reason = self.check(text)
        if reason is not None:
            return [("class:warn", f"! {reason}\n")]
        verb, cell = self.parse(text)
        if cell is not None:  # a click, the one verb with a cell
            return self._do_click(cell)
        actions: dict[str, Callable[[], Fragments]] = {
            "undo": self._do_undo, "hint": self._do_hint, "help": self._do_help,
            "board": self._do_board, "quit": self._do_quit}
        return actions[verb]()

    # --- actions ------------------------------------------------------------------------
    def _do_click(self, cell: int) -> Fragments:
        self.game.click(cell)
        self.hinted = None
        out: Fragments = [("", f"{self.game.moves:>4}. "), ("class:cellname", self.shape.name(cell)),
                          ("class:note", f"  {self.left()}\n")]
        if self.game.won:
            self.over = True
            out += self._won()
        return out

    def _do_undo(self) -> Fragments:
        cell = self.game.undo()
        self.hinted = None
        assert cell is not None
        text = f"      undo {self.shape.name(cell)}  {self.left()}\n"
        return [("class:note", text)]

    def _do_hint(self) -> Fragments:
        cell = self.game.hint()
        assert cell is not None  # a won game is over
        self.hinted, self.hints = cell, self.hints + 1
        n = self.game.to_go()
        found = self.game.fewest(self.game.lights)
        best = "the fewest" if found is None or found[1] else "countlo's best"
        return [("class:advice", "Hint: click "), ("class:cellname", self.shape.name(cell)),
                ("class:note", f" ({best} from here: {plural(n, 'click')})\n")]

    def _do_help(self) -> Fragments:
        return [("", HELP.format(keys=self.keys, goal=self.goal_text(), rule=self.rule_text()))]

    def goal_text(self) -> str:
        if self.goal == "dark":
            return "Turn every light off."
        if self.goal == "lit":
            return "Turn every light on (state 1)."
        return f"Make the board match the target ({self.goal}, shown at the start)."

    def rule_text(self) -> str:
        """What a click does, in words."""
        rules = self.shape.rules
        if rules.classic:
            return "Clicking a cell toggles it and its neighbours above, below, left and right."
        name = rules.rule.name
        cells = RULE_HELP[name].replace(" (the classic)", "") if name in RULE_HELP else \
            "the cells of the drawn rule"
        change = "toggles" if rules.states == 2 else f"adds 1 (mod {rules.states}) to"
        edges = "" if rules.topology == "plane" else \
            f"\nEdges: {rules.topology}, {TOPOLOGY_HELP[rules.topology]}."
        return f"Clicking a cell {change} {cells}.{edges}"

    def _do_board(self) -> Fragments:
        return []  # the prompt draws the board anyway

    def _do_quit(self) -> Fragments:
        self.over = True
        return self.leave()

    # --- what is shown ------------------------------------------------------------------
    def greeting(self) -> Fragments:
        g = self.game
        best = "" if g.optimum_exact else " or fewer"
        label = f", {self.label}" if self.label else ""
        rules = self.shape.rules
        kind = "" if rules.classic else f" ({rules.describe()})"
        goal = {"dark": "Turn every light off", "lit": "Turn every light on"}.get(
            self.goal, "Reach the target")
        text = (f"{goal} in as few clicks as you can: {g.optimum}{best} will do"
                f"{' (counted with multiplicity)' if g.k > 2 else ''}.\n")
        out: Fragments = [("class:advice", f"countlo practice: {self.shape} board{kind}{label}\n"),
                          ("", text)]
        if not rules.classic:
            out.append(("class:note", self.rule_text() + "\n"))
        if self.goal not in ("dark", "lit"):
            out += [("", "The target:\n"), *(f for f, _name in self._grid(g.target, None))]
        return out + [("", "Type a cell (C4) or click it; hint, undo, help, quit.\n")]

    def board(self) -> StyleAndTextTuples:
        """The lights, columns lettered and rows numbered; each cell carries a mouse handler
        when a front end has set `on_click` (the live board of countlo.ui.clickable)."""
        drawn = self._grid(self._lights(), self.hinted)
        return [self._clickable(f, name) if name is not None else f for f, name in drawn]

    def picture(self) -> Fragments:
        """The lights as `board` draws them, without mouse handlers (printed text and pipes)."""
        return [f for f, _name in self._grid(self._lights(), self.hinted)]

    def _lights(self) -> Vector:
        return [self.game.state(k) for k in range(self.shape.cells)]

    def _grid(self, values: Vector, hinted: int | None) -> Drawn:
        s = self.shape
        pad = len(str(s.rows))
        out: Drawn = [(("", " " * (pad + 1)), None)]
        for c in range(s.cols):
            out.append((("class:label", f" {column_letters(c):<2} "), None))
        out.append((("", "\n"), None))
        for r in range(s.rows):
            out.append((("class:label", f"{r + 1:>{pad}} "), None))
            for c in range(s.cols):
                k = r * s.cols + c
                v = values[k]
                style = "class:cell.lit" if v else "class:cell.dark"
                text = DARK if not v else LIT if self.game.k == 2 else f"{v:>2}"
                left, right = ("[", "]") if k == hinted else (" ", " ")
                mark = "class:mark" if k == hinted else ""
                name = s.name(k)
                out += [((mark, left), name), ((style, text), name), ((mark, right), name)]
            out.append((("", "\n"), None))
        return out

    def _clickable(self, fragment: tuple[str, str], name: str) -> OneStyleAndTextTuple:
        if self.on_click is None:
            return fragment
        on_click = self.on_click

        def handler(event: MouseEvent) -> object:  # None: handled; NotImplemented: not ours
            from prompt_toolkit.mouse_events import MouseEventType

            if event.event_type == MouseEventType.MOUSE_UP:
                on_click(name)
                return None
            return NotImplemented

        return (fragment[0], fragment[1], handler)

    def left(self) -> str:
        """'3 lights on', or under another goal '3 cells off target'."""
        if self.goal == "dark":
            return f"{plural(self.game.lit, 'light')} on"
        return f"{plural(self.game.lit, 'cell')} off target"

    def status(self) -> str:
        g = self.game
        best = "" if g.optimum_exact else "<="
        return (f"{plural(g.moves, 'move')} · fewest from the start {best}{g.optimum} · "
                f"{self.left()}")

    def prompt(self, status: bool = False) -> Fragments:
        out = self.picture()
        if status:
            out.append(("class:note", self.status() + "\n"))
        return [*out, ("", "> ")]

    def toolbar(self) -> Fragments:
        """One short line (fits 40 columns on boards up to 99 lit): moves against the fewest."""
        g = self.game
        best = "" if g.optimum_exact else "<="
        left = f"{g.lit} lit" if self.goal == "dark" else f"{g.lit} off target"
        return [("", f" {plural(g.moves, 'move')} (fewest {best}{g.optimum}) · {left} · "),
                ("class:bottom-toolbar.key", "hint"), ("", " · "),
                ("class:bottom-toolbar.key", self.keys), ("", " undo")]

    def words(self) -> list[str]:
        return sorted(set(WORDS) - {"h", "?", "u", "b", "q"}) + [
            self.shape.name(k) for k in range(self.shape.cells)]

    def _won(self) -> Fragments:
        g = self.game
        if g.moves == g.optimum:
            verdict = "the fewest possible"
        elif g.optimum_exact:
            verdict = f"the fewest possible was {g.optimum}"
        else:
            verdict = f"countlo's best is {g.optimum}"
        hints = f", {plural(self.hints, 'hint')}" if self.hints else ""
        done = {"dark": "All dark", "lit": "All lit"}.get(self.goal, "Target reached")
        text = f"{done}: solved in {plural(g.moves, 'move')} ({verdict}{hints}).\n"
        return [*self.picture(), ("class:ok", text)]

    def leave(self) -> Fragments:
        if self.game.won:
            return []
        text = (f"Left after {plural(self.game.moves, 'move')} with "
                f"{self.left()}.\n")
        return [("class:note", text)]
