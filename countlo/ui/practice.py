"""The screen and conversation of `countlo practice`: Lights Out with the lights shown, on a grid
under any rules, a grid with holes, or a graph.

`PracticeSession` speaks the same interface as the guided session of `play` (greeting, prompt,
toolbar, check, handle, leave, words, over), so the same front ends run it: prompt_toolkit in a
terminal (with the mouse: every cell of the drawn board is clickable) and plain lines for pipes.
The game itself is countlo.visible.practice.Practice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from countlo.board import Shape, Vector, column_letters
from countlo.errors import CountloError
from countlo.formats.states import describe_values
from countlo.graph import Graph, button_count, button_name
from countlo.i18n import N_, _, ngettext
from countlo.pressmap import PressMap
from countlo.rules import RULE_HELP, TOPOLOGY_HELP, Rules
from countlo.ui.picture import DARK, LIT, Fragments
from countlo.ui.rulewords import TOPOLOGIES, graph_text, press_map_text, rules_text
from countlo.visible.practice import Practice

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
    from prompt_toolkit.mouse_events import MouseEvent

Drawn = list[tuple[tuple[str, str], str | None]]  # (style, text) fragments, each with the name of
# the cell it draws (None: a label or a line end), so a front end can make the cells clickable

WORDS = {"hint": "hint", "h": "hint", "?": "hint", "undo": "undo", "u": "undo", "back": "undo",
         "redo": "redo", "r": "redo", "restart": "restart", "new": "new", "n": "new",
         "solution": "solution", "s": "solution", "show": "solution",
         "help": "help", "board": "board", "b": "board", "quit": "quit", "q": "quit",
         "exit": "quit"}

HELP = N_("""\
{goal}
{rule}
  C4, 4 3   click a cell by name or by row and column, or with the mouse;
            arrow keys move the cursor, Space clicks it
  -C4       click backwards (takes 1 away, with more than two states; Delete at the cursor)
  hint      one click of a fewest-click way to finish from here
  solution  show or hide the fewest clicks from here on the board (kept right as you click)
  undo      take back the last click ({keys}); redo clicks it again
  restart   back to the start; new: a new board (random starts)
  board     show the board again
  quit      leave (Ctrl-C and Ctrl-D too)
""")


OVERLAY = {1: ("(", ")"), 2: ("{", "}"), 3: ("<", ">")}  # the solution's marks: once, twice, more
BUTTON = "=="  # a press map's button (its lights are drawn above it as the lights of a graph)


class PracticeError(CountloError):
    """A line that is not a cell on this board or a practice command."""


def moves(n: int) -> str:
    return ngettext("{n} move", "{n} moves", n).format(n=n)


class PracticeSession:
    """One practice game as text in, formatted fragments out (no terminal)."""

    def __init__(self, game: Practice, label: str = "", keys: str = "F2", goal: str = "dark",
                 new_game: Callable[[], tuple[Practice, str]] | None = None):
        """`goal`: dark, lit, or the target's file name; `new_game` draws another board (random
        starts), None when the start came from a file."""
        self.keys, self.goal, self.new_game = keys, goal, new_game
        self.on_click: Callable[[str], None] | None = None  # set by a mouse-aware front end
        self._start(game, label)

    def _start(self, game: Practice, label: str) -> None:
        self.game, self.label = game, label
        self.shape = game.shape  # the grid drawn (None on a graph)
        self.hinted: int | None = None  # the light the last hint named, bracketed on the board
        self.hints = 0
        self.overlay = False  # the fewest clicks from here shown on the board
        self.over = game.won
        b = game.board
        self.names = [b.name(i) for i in range(b.cells)]  # the lights
        self.buttons = [button_name(b, j) for j in range(button_count(b))]  # what a click names
        # a press map whose buttons are other things than its lights: the buttons get rows of their own
        # below the lights, and the cursor, the hint and the solution's marks are on them
        self.apart = isinstance(b, PressMap) and b.buttons != b.lights
        # where each light is drawn: a grid (None for a hole), or one row per node of a graph
        shape = game.shape
        if shape is not None:
            places = b.places if isinstance(b, PressMap) and b.places is not None else range(b.cells)
            at: dict[int, int] = {p: i for i, p in enumerate(places)}
            self.layout: list[list[int | None]] = [[at.get(r * shape.cols + c) for c in range(shape.cols)]
                                                   for r in range(shape.rows)]
            self.row_labels = [str(r + 1) for r in range(shape.rows)]
            self.col_labels = [column_letters(c) for c in range(shape.cols)]
        else:
            self.layout = [[i] for i in range(b.cells)]
            self.row_labels, self.col_labels = list(self.names), []
        self.cursor = 0 if self.apart else next(i for row in self.layout for i in row if i is not None)

    # --- reading a line -----------------------------------------------------------------
    def parse(self, text: str) -> tuple[str, int | None]:
        """(verb, light) of a typed line ('click' or 'back' with a light); PracticeError (one
        line) if it means nothing here."""
        words = text.strip().lower().split()
        if not words:
            return "board", None
        if len(words) == 1 and words[0] in WORDS:
            short = len(words[0]) == 1  # h, u, r, b ...: a node of that name comes first
            if not (short and (self.game.shape is None or self.apart) and text.strip() in self.buttons):
                return WORDS[words[0]], None
        body, verb = text.strip(), "click"
        if body.startswith("-"):
            body, verb = body[1:].strip(), "back"
        return verb, self.light(body)

    def light(self, text: str) -> int:
        """The button a typed name clicks: A1 or 'row col' on a grid (not a hole), a node's or a
        press map's button's name."""
        shape = self.game.shape
        if shape is None or self.apart:
            for i, name in enumerate(self.buttons):
                if name == text or name.lower() == text.lower():
                    return i
            if self.apart:
                raise PracticeError(_("{text} is not a button of this press map or a command (hint, undo, help, "
                                      "quit)").format(text=repr(text)))
            raise PracticeError(_("{text} is not a node of this graph or a command (hint, undo, help, "
                                  "quit)").format(text=repr(text)))
        try:
            cell = shape.parse_cell(text)
        except CountloError as e:
            if text[:1].isalpha() and not any(ch.isdigit() for ch in text):
                raise PracticeError(_("{text} is not a cell like C4 or a command (hint, undo, help, "
                                      "quit)").format(text=repr(text))) from None
            raise PracticeError(str(e)) from None
        light = self.layout[cell // shape.cols][cell % shape.cols]
        if light is None:
            raise PracticeError(_("{cell} is a hole: there is no cell to click").format(cell=shape.name(cell)))
        return light

    def check(self, text: str) -> str | None:
        try:
            verb, _light = self.parse(text)
        except CountloError as e:
            return str(e)
        if verb == "undo" and not self.game.clicks:
            return _("nothing to undo yet")
        if verb == "redo" and not self.game.undone:
            return _("nothing to redo")
        if verb == "back" and self.game.k == 2:
            return _("with two states a click backwards is the same click: type the cell")
        if verb == "new" and self.new_game is None:
            return _("this board came from a file: restart plays it again")
        return None

    def handle(self, text: str) -> Fragments:
        reason = self.check(text)
        if reason is not None:
            return [("class:warn", f"! {reason}\n")]
        verb, cell = self.parse(text)
        if cell is not None:  # a click, forwards or backwards: the verbs with a light
            return self._do_click(cell, verb == "back")
        actions: dict[str, Callable[[], Fragments]] = {
            "undo": self._do_undo, "redo": self._do_redo, "restart": self._do_restart,
            "new": self._do_new, "solution": self._do_solution, "hint": self._do_hint,
            "help": self._do_help, "board": self._do_board, "quit": self._do_quit}
        return actions[verb]()

    # --- the cursor (arrow keys and Space in the clickable front end) ------------------
    def move_cursor(self, dr: int, dc: int) -> None:
        """Move the cursor one cell (skipping holes), staying on the board (on a press map's
        buttons: to the next or the previous one)."""
        if self.apart:
            self.cursor = max(0, min(len(self.buttons) - 1, self.cursor + dr + dc))
            return
        spots = [(r, c) for r, row in enumerate(self.layout) for c, i in enumerate(row) if i == self.cursor]
        r, c = spots[0]
        while True:
            r, c = r + dr, c + dc
            if not (0 <= r < len(self.layout) and 0 <= c < len(self.layout[r])):
                return
            found = self.layout[r][c]
            if found is not None:
                self.cursor = found
                return

    def cursor_name(self) -> str:
        return self.buttons[self.cursor]

    # --- actions ------------------------------------------------------------------------
    def _do_click(self, cell: int, backwards: bool = False) -> Fragments:
        self.game.click(cell, backwards)
        self.hinted, self.cursor = None, cell
        name = ("-" if backwards else "") + self.buttons[cell]
        out: Fragments = [("", f"{self.game.moves:>4}. "), ("class:cellname", name),
                          ("class:note", f"  {self.left()}\n")]
        if self.game.won:
            self.over = True
            out += self._won()
        return out

    def _do_undo(self) -> Fragments:
        cell = self.game.undo()
        self.hinted = None
        assert cell is not None
        text = "      " + _("undo {cell}  {left}").format(cell=self.buttons[cell], left=self.left()) + "\n"
        return [("class:note", text)]

    def _do_redo(self) -> Fragments:
        cell = self.game.redo()
        self.hinted = None
        assert cell is not None
        out: Fragments = [("class:note", "      " + _("redo {cell}  {left}").format(
            cell=self.buttons[cell], left=self.left()) + "\n")]
        if self.game.won:
            self.over = True
            out += self._won()
        return out

    def _do_restart(self) -> Fragments:
        self.game.restart()
        self.hinted = None
        return [("class:note", _("Back to the start: {left}.").format(left=self.left()) + "\n")]

    def _do_new(self) -> Fragments:
        assert self.new_game is not None
        game, label = self.new_game()
        overlay = self.overlay
        self._start(game, label)
        self.overlay = overlay
        return self.greeting()

    def _do_solution(self) -> Fragments:
        self.overlay = not self.overlay
        if not self.overlay:
            return [("class:note", _("Solution hidden.") + "\n")]
        n = self.game.to_go()
        cells = describe_values(self.buttons, self.game.solution())
        twice = _(" ({ } twice, < > more)") if self.game.k > 2 else ""
        return [("class:note", ngettext(
            "Solution shown: the {n} click marked ( ){twice} wins from here: {cells}. It follows your clicks.",
            "Solution shown: the {n} clicks marked ( ){twice} win from here: {cells}. It follows your clicks.",
            n).format(n=n, twice=twice, cells=cells) + "\n")]

    def _do_hint(self) -> Fragments:
        cell = self.game.hint()
        assert cell is not None  # a won game is over
        self.hinted, self.hints = cell, self.hints + 1
        n = self.game.to_go()
        found = self.game.fewest(self.game.lights)
        note = ngettext(" (the fewest from here: {n} click)", " (the fewest from here: {n} clicks)", n) \
            if found is None or found[1] else \
            ngettext(" (countlo's best from here: {n} click)", " (countlo's best from here: {n} clicks)", n)
        return [("class:advice", _("Hint: click ")), ("class:cellname", self.buttons[cell]),
                ("class:note", note.format(n=n) + "\n")]

    def _do_help(self) -> Fragments:
        return [("", _(HELP).format(keys=self.keys, goal=self.goal_text(), rule=self.rule_text()))]

    def goal_text(self) -> str:
        if self.goal == "dark":
            return _("Turn every light off.")
        if self.goal == "lit":
            return _("Turn every light on (state 1).")
        return _("Make the board match the target ({file}, shown at the start).").format(file=self.goal)

    def rule_text(self) -> str:
        """What a click does, in words."""
        rules = self._rules()
        b = self.game.board
        if isinstance(b, PressMap) and rules is None:
            if b.preset == "merlin":
                return _("Clicking a corner toggles its 2x2 block, an edge cell the three cells along its edge, "
                         "the centre its plus (Merlin's Magic Square).")
            said = [_("Each button changes its own lights:")]
            for j, name in enumerate(self.buttons):
                said.append(f"  {name}: " + describe_values(self.names, [dict(b.changes[j]).get(i, 0)
                                                                         for i in range(b.cells)]))
            return "\n".join(said)
        if rules is None:
            if getattr(self.game.board, "rule", "") == "sigma":
                return _("Clicking a node changes its neighbours (the rule sigma), not the node itself.")
            return _("Clicking a node changes it and its neighbours (the rule sigma+).")
        if rules.classic and not self._holes():
            return _("Clicking a cell toggles it and its neighbours above, below, left and right.")
        name = rules.rule.name
        cells = _(RULE_HELP[name]) if name in RULE_HELP else _("the cells of the drawn rule")
        text = _("Clicking a cell toggles {cells}.").format(cells=cells) if rules.states == 2 else \
            _("Clicking a cell adds 1 (mod {k}) to {cells}.").format(k=rules.states, cells=cells)
        if rules.topology != "plane":
            text += "\n" + _("Edges: {topology}, {how}.").format(topology=_(TOPOLOGIES[rules.topology]),
                                                                how=_(TOPOLOGY_HELP[rules.topology]))
        if self._holes():
            text += "\n" + _("The cells marked x are holes: no light there, and no click changes them.")
        return text

    def _rules(self) -> Rules | None:
        """The grid's rules (a grid with holes keeps them), None on a graph."""
        b = self.game.board
        if isinstance(b, Shape):
            return b.rules
        return b.rules if isinstance(b, PressMap) else None

    def _holes(self) -> bool:
        return any(i is None for row in self.layout for i in row)

    def describe(self) -> str:
        """'5x5 board', '5x5 board (torus, plus rule)', '4x4 board with 2 holes', 'graph of ...'."""
        b, rules = self.game.board, self._rules()
        if rules is None:
            return press_map_text(b) if isinstance(b, PressMap) else graph_text(b) if isinstance(b, Graph) else str(b)
        holes = sum(i is None for row in self.layout for i in row)
        where = ngettext("{size} board with {n} hole", "{size} board with {n} holes", holes) if holes else \
            _("{size} board")
        where = where.format(size=self.game.shape, n=holes)
        return where if rules.classic else _("{board} ({rules})").format(board=where, rules=rules_text(rules))

    def _do_board(self) -> Fragments:
        return []  # the prompt draws the board anyway

    def _do_quit(self) -> Fragments:
        self.over = True
        return self.leave()

    # --- what is shown ------------------------------------------------------------------
    def greeting(self) -> Fragments:
        g = self.game
        best = str(g.optimum) if g.optimum_exact else _("{n} or fewer").format(n=g.optimum)
        label = f", {self.label}" if self.label else ""
        rules = self._rules()
        goal = {"dark": _("Turn every light off"), "lit": _("Turn every light on")}.get(
            self.goal, _("Reach the target"))
        text = _("{goal} in as few clicks as you can: {best} will do.") if g.k == 2 else \
            _("{goal} in as few clicks as you can: {best} will do (counted with multiplicity).")
        out: Fragments = [("class:advice", f"countlo practice: {self.describe()}{label}\n"),
                          ("", text.format(goal=goal, best=best) + "\n")]
        if rules is None or not rules.classic or self._holes():
            out.append(("class:note", self.rule_text() + "\n"))
        if self.goal not in ("dark", "lit"):
            out += [("", _("The target:") + "\n"), *(f for f, _name in self._grid(g.target, None))]
        if self.apart:
            typed = _("Type a button's name or click it; hint, solution, undo, help, quit.")
        elif self.game.shape is None:
            typed = _("Type a node's name or click it; hint, solution, undo, help, quit.")
        else:
            typed = _("Type a cell (C4) or click it; hint, solution, undo, help, quit.")
        return out + [("", typed + "\n")]

    def board(self) -> StyleAndTextTuples:
        """The lights, columns lettered and rows numbered; each cell carries a mouse handler
        when a front end has set `on_click` (the live board of countlo.ui.clickable)."""
        drawn = self._grid(self._lights(), self.hinted, cursor=True)
        return [self._clickable(f, name) if name is not None else f for f, name in drawn]

    def picture(self) -> Fragments:
        """The lights as `board` draws them, without mouse handlers (printed text and pipes)."""
        return [f for f, _name in self._grid(self._lights(), self.hinted)]

    def _lights(self) -> Vector:
        return [self.game.state(k) for k in range(self.game.board.cells)]

    def _pad(self) -> int:
        """The width of the row labels (a press map's button names too)."""
        return max(len(label) for label in [*self.row_labels, *(self.buttons if self.apart else ())])

    def board_width(self) -> int:
        """Columns the board takes (for the narrow-terminal note)."""
        return self._pad() + 1 + 4 * max(len(row) for row in self.layout)

    def _grid(self, values: Vector, hinted: int | None, cursor: bool = False) -> Drawn:
        pad = self._pad()
        plan = self.game.solution() if self.overlay and not self.game.won else None
        out = self._lights_drawn(values, pad, None if self.apart else hinted, None if self.apart else plan,
                                 cursor and not self.apart)
        if self.apart:  # the buttons, a row each, below the lights
            out.append((("class:label", _("buttons:") + "\n"), None))
            for j, name in enumerate(self.buttons):
                left, right = " ", " "
                if plan is not None and plan[j]:
                    left, right = OVERLAY[min(plan[j], 3)]
                if j == hinted:
                    left, right = "[", "]"
                mark = "class:mark" if j == hinted or (plan is not None and plan[j]) else ""
                style = "class:cell.dark" + (" class:cursor" if cursor and j == self.cursor else "")
                out += [(("class:label", f"{name:>{pad}} "), None), ((mark, left), name),
                        ((style, BUTTON), name), ((mark, right), name), (("", "\n"), None)]
        return out

    def _lights_drawn(self, values: Vector, pad: int, hinted: int | None, plan: Vector | None,
                      cursor: bool) -> Drawn:
        """The lights on their grid, or a row each; each carries its name to be clicked unless
        the buttons are other things."""
        out: Drawn = []
        if self.col_labels:
            out.append((("", " " * (pad + 1)), None))
            for label in self.col_labels:
                out.append((("class:label", f" {label:<2} "), None))
            out.append((("", "\n"), None))
        for r, row in enumerate(self.layout):
            out.append((("class:label", f"{self.row_labels[r]:>{pad}} "), None))
            for k in row:
                if k is None:  # a hole: nothing there to click
                    out.append((("class:label", " x  "), None))
                    continue
                v = values[k]
                style = "class:cell.lit" if v else "class:cell.dark"
                text = DARK if not v else LIT if self.game.k == 2 else f"{v:>2}"
                left, right = " ", " "
                if plan is not None and plan[k]:  # once ( ), twice { }, more < > (the listing says how often)
                    left, right = OVERLAY[min(plan[k], 3)]
                if k == hinted:
                    left, right = "[", "]"
                mark = "class:mark" if k == hinted or (plan is not None and plan[k]) else ""
                if cursor and k == self.cursor:
                    style += " class:cursor"
                name = None if self.apart else self.names[k]
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
        n = self.game.lit
        if self.goal == "dark":
            return ngettext("{n} light on", "{n} lights on", n).format(n=n)
        return ngettext("{n} cell off target", "{n} cells off target", n).format(n=n)

    def status(self) -> str:
        g = self.game
        best = ("" if g.optimum_exact else "<=") + str(g.optimum)
        return _("{moves} · fewest from the start {best} · {left}").format(
            moves=moves(g.moves), best=best, left=self.left())

    def prompt(self, status: bool = False) -> Fragments:
        out = self.picture()
        if status:
            out.append(("class:note", self.status() + "\n"))
        return [*out, ("", "> ")]

    def toolbar(self) -> Fragments:
        """One short line (fits 40 columns on boards up to 99 lit): moves against the fewest."""
        g = self.game
        best = ("" if g.optimum_exact else "<=") + str(g.optimum)
        left = (_("{n} lit") if self.goal == "dark" else _("{n} off target")).format(n=g.lit)
        return [("", " " + _("{moves} (fewest {best}) · {left} · ").format(moves=moves(g.moves), best=best,
                                                                            left=left)),
                ("class:bottom-toolbar.key", "hint"), ("", " · "),
                ("class:bottom-toolbar.key", self.keys), ("", " undo")]

    def words(self) -> list[str]:
        return sorted(set(WORDS) - {"h", "?", "u", "b", "q", "r", "n", "s"}) + list(self.buttons)

    def _won(self) -> Fragments:
        g = self.game
        if g.moves == g.optimum:
            verdict = _("the fewest possible")
        elif g.optimum_exact:
            verdict = _("the fewest possible was {n}").format(n=g.optimum)
        else:
            verdict = _("countlo's best is {n}").format(n=g.optimum)
        if self.hints:
            verdict += ngettext(", {n} hint", ", {n} hints", self.hints).format(n=self.hints)
        done = {"dark": _("All dark"), "lit": _("All lit")}.get(self.goal, _("Target reached"))
        text = _("{done}: solved in {moves} ({verdict}).").format(done=done, moves=moves(g.moves), verdict=verdict)
        return [*self.picture(), ("class:ok", text + "\n")]

    def leave(self) -> Fragments:
        if self.game.won:
            return []
        text = _("Left after {moves} with {left}.").format(moves=moves(self.game.moves), left=self.left())
        return [("class:note", text + "\n")]
