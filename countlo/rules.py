"""The rules of a Lights Out game on a grid: topology, click rule, number of states, target.

`Rules()` is the classic game: plus-shaped click on a clipped (plane) grid, two states, target
all dark. A `Shape` carries its `Rules`, so every layer that takes a Shape plays by them.

A click on cell (r, c) adds 1 (mod `states`) to the cell reached by each offset (dr, dc) of the
rule, wrapped by the topology (docs/MATH.md §18). An offset that wraps onto a cell
already hit adds again (tiny tori), so a click is a multiset of cells.
"""

from __future__ import annotations

from countlo.errors import BadRuleError
from countlo.i18n import N_, _
from countlo.tokens import is_integer, shown
from countlo.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Iterator

Offset = tuple[int, int]

TOPOLOGIES = ("plane", "cylinder", "torus", "moebius", "klein", "projective")
TOPOLOGY_HELP = {  # marked for translation: practice says them in the language spoken
    "plane": N_("edges clipped (the classic)"),
    "cylinder": N_("left and right edges joined"),
    "torus": N_("left-right and top-bottom edges joined"),
    "moebius": N_("left-right joined with a half twist (rows flip), top and bottom clipped"),
    "klein": N_("left-right joined with a half twist, top-bottom joined plainly"),
    "projective": N_("both pairs of edges joined with a half twist"),
}
MAX_STATES = 255
MAX_MASK_SIDE = 15  # a drawn rule mask reaches at most 7 cells from its centre


def _box(reach: int) -> list[Offset]:
    return [(dr, dc) for dr in range(-reach, reach + 1) for dc in range(-reach, reach + 1)]


_KNIGHT = [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]
NAMED: dict[str, tuple[Offset, ...]] = {
    "plus": ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)),
    "x": ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    "star": tuple(_box(1)),
    "ring": tuple(o for o in _box(1) if o != (0, 0)),
    "knight": tuple(sorted([(0, 0), *_KNIGHT])),
}
RULE_HELP = {  # what a click changes (plus is the classic), marked for translation as TOPOLOGY_HELP
    "plus": N_("the cell and its 4 orthogonal neighbours"),
    "x": N_("the cell and its 4 diagonal neighbours"),
    "star": N_("the cell and all 8 neighbours (plus and x)"),
    "ring": N_("the 8 neighbours, not the cell itself"),
    "knight": N_("the cell and the 8 cells a chess knight's move away (XL-25)"),
    "rowcol": N_("the cell's whole row and whole column (the cell once)"),
}
ROWCOL = "rowcol"
TARGETS = ("dark", "lit")


class Rule(Value):
    """A click rule on a grid: `name` and the offsets it changes (empty for `rowcol`, which
    depends on the board size). A `Value` rather than a dataclass: it is on the start-up path of
    every command."""

    FIELDS = __slots__ = ("name", "offsets")
    name: str
    offsets: tuple[Offset, ...]

    def __init__(self, name: str, offsets: tuple[Offset, ...] = ()) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "offsets", tuple(offsets))

    @classmethod
    def named(cls, name: str) -> Rule:
        key = name.strip().lower()
        if key == ROWCOL:
            return cls(ROWCOL)
        if key not in NAMED:
            known = ", ".join([*NAMED, ROWCOL])
            raise BadRuleError(_("unknown click rule {name!r}: expected one of {known}, or a file with the "
                                 "rule drawn as a small grid").format(name=name, known=known))
        return cls(key, NAMED[key])

    @classmethod
    def from_text(cls, text: str, where: str = "rule") -> Rule:
        """A rule drawn as a small grid: `#`, `x`, `X` or `1` a changed cell, `.`, `0` or `-`
        unchanged, `O` the centre (changed), `o` the centre (unchanged). Lines starting with
        `;` are comments; spaces are ignored."""
        rows: list[tuple[int, str]] = []
        for n, line in enumerate(text.splitlines(), 1):
            body = line.replace(" ", "").replace("\t", "")
            if not body or body.startswith(";"):
                continue
            bad = [ch for ch in body if ch not in "#xX1.0-Oo"]
            if bad:
                raise BadRuleError(f"{where}:{n}: " + _("unexpected {char!r} in a rule grid (use # for a "
                                                          "changed cell, . for unchanged, O/o for the "
                                                          "centre)").format(char=bad[0]))
            rows.append((n, body))
        if not rows:
            raise BadRuleError(f"{where}: " + _("empty rule grid"))
        if len(rows) > MAX_MASK_SIDE or max(len(b) for _, b in rows) > MAX_MASK_SIDE:
            raise BadRuleError(f"{where}: " + _("rule grids are at most {n}x{n}").format(n=MAX_MASK_SIDE))
        centres = [(i, j, n) for i, (n, b) in enumerate(rows) for j, ch in enumerate(b)
                   if ch in "Oo"]
        if not centres:
            raise BadRuleError(f"{where}: " + _("no centre marked (write O for a centre the click changes, "
                                                 "o for one it does not)"))
        if len(centres) > 1:
            raise BadRuleError(f"{where}:{centres[1][2]}: " + _("a second centre (one O or o only)"))
        ci, cj, _line = centres[0]
        offsets = sorted((i - ci, j - cj) for i, (_, b) in enumerate(rows)
                         for j, ch in enumerate(b) if ch in "#xX1O")
        if not offsets:
            raise BadRuleError(f"{where}: " + _("the rule changes no cell"))
        name = next((k for k, v in NAMED.items() if tuple(offsets) == v), "mask")
        return cls(name, tuple(offsets))

    def drawn(self) -> str:
        """The rule as a grid in the `from_text` format (one line per row)."""
        if self.name == ROWCOL:
            return "rowcol"
        reach = max(max(abs(dr), abs(dc)) for dr, dc in self.offsets)
        on = set(self.offsets)
        lines = []
        for dr in range(-reach, reach + 1):
            line = ""
            for dc in range(-reach, reach + 1):
                if (dr, dc) == (0, 0):
                    line += "O" if (0, 0) in on else "o"
                else:
                    line += "#" if (dr, dc) in on else "."
            lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.name

    def spec(self) -> str:
        """One line naming the rule: its name, or 'mask' and the offsets as row:col pairs."""
        if self.name in NAMED or self.name == ROWCOL:
            return self.name
        return "mask " + " ".join(f"{dr}:{dc}" for dr, dc in self.offsets)

    @classmethod
    def from_spec(cls, text: str) -> Rule:
        """The rule of a `spec` line."""
        parts = text.split()
        if not parts or parts[0].lower() != "mask":
            return cls.named(text)
        offsets = []
        for item in parts[1:]:
            dr, sep, dc = item.partition(":")
            if not (is_integer(dr, 3) and is_integer(dc, 3)):  # ASCII only: not '٣', not 5000 digits
                raise BadRuleError(_("bad rule offset {item!r}: expected ROW:COL like -1:0").format(
                    item=shown(item)[1:-1]))
            offsets.append((int(dr), int(dc)))
            if not sep or max(abs(offsets[-1][0]), abs(offsets[-1][1])) > MAX_MASK_SIDE:
                raise BadRuleError(_("bad rule offset {item!r}: expected ROW:COL like -1:0").format(item=item))
        if not offsets:
            raise BadRuleError(_("the rule changes no cell"))
        offsets = sorted(set(offsets))
        name = next((k for k, v in NAMED.items() if tuple(offsets) == v), "mask")
        return cls(name, tuple(offsets))


PLUS = Rule("plus", NAMED["plus"])


class Rules(Value):
    """Topology, click rule, number of light states and target of a grid game."""

    FIELDS = __slots__ = ("topology", "rule", "states", "target")
    topology: str
    rule: Rule
    states: int
    target: str

    def __init__(self, topology: str = "plane", rule: Rule = PLUS, states: int = 2,
                 target: str = "dark") -> None:
        object.__setattr__(self, "topology", topology)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "states", states)
        object.__setattr__(self, "target", target)
        self._check()

    def _check(self) -> None:
        if self.topology not in TOPOLOGIES:
            raise BadRuleError(_("unknown topology {name!r}: expected one of {known}").format(
                name=self.topology, known=", ".join(TOPOLOGIES)))
        if isinstance(self.states, bool) or not isinstance(self.states, int) or not (
                2 <= self.states <= MAX_STATES):
            raise BadRuleError(_("the number of states must be 2..{most}, not {n}").format(
                most=MAX_STATES, n=self.states))
        if self.target not in TARGETS:
            raise BadRuleError(_("unknown target {name!r}: expected dark or lit").format(name=self.target))
        if self.rule.name == ROWCOL and self.topology != "plane":
            raise BadRuleError(_("the rowcol rule changes whole rows and columns: a topology other than "
                                 "plane would change nothing, so it is refused"))

    @classmethod
    def make(cls, topology: str = "plane", rule: str | Rule = "plus", states: int = 2,
             target: str = "dark") -> Rules:
        """Rules from user-facing names (case-insensitive), checked."""
        top = topology.strip().lower().replace("ö", "o").replace("mobius", "moebius")
        r = rule if isinstance(rule, Rule) else Rule.named(rule)
        return cls(top, r, states, target.strip().lower())

    @property
    def transposable(self) -> bool:
        """True when the board turned over its diagonal is again a game of this kind."""
        return self.topology in ("plane", "torus")

    def transposed(self) -> Rules:
        """The rules of the board turned over its diagonal (offsets (dr, dc) become (dc, dr))."""
        if not self.transposable:
            raise BadRuleError(_("a {topology} board cannot be turned over its diagonal").format(
                topology=self.topology))
        rule = self.rule
        if rule.name != ROWCOL:
            offsets = tuple(sorted((dc, dr) for dr, dc in rule.offsets))
            rule = Rule(rule.name if offsets == rule.offsets else f"{rule.name} turned", offsets)
        return Rules(self.topology, rule, self.states, self.target)

    @property
    def classic(self) -> bool:
        """Plane, plus, two states (the target does not change the press masks)."""
        return self.topology == "plane" and self.rule == PLUS and self.states == 2

    def describe(self) -> str:
        """Short words for headers: e.g. 'torus, x rule, 3 states, target lit'."""
        parts = [self.topology, f"{self.rule.name} rule"]
        if self.states != 2:
            parts.append(f"{self.states} states")
        if self.target != "dark":
            parts.append(f"target {self.target}")
        return ", ".join(parts)

    # --- geometry ---------------------------------------------------------------------
    def hits(self, rows: int, cols: int, r: int, c: int) -> Iterator[tuple[int, int]]:
        """The cells a click on (r, c) changes, once per offset (repeats possible on small
        wrapped boards); offsets falling off a clipped edge change nothing."""
        if self.rule.name == ROWCOL:
            yield from ((r, j) for j in range(cols))
            yield from ((i, c) for i in range(rows) if i != r)
            return
        for dr, dc in self.rule.offsets:
            cell = place(self.topology, rows, cols, r + dr, c + dc)
            if cell is not None:
                yield cell


def place(topology: str, rows: int, cols: int, r: int, c: int) -> tuple[int, int] | None:
    """Where the unwrapped position (r, c) lands on a rows x cols board of this topology, or None
    when it falls off a clipped edge. Rows are resolved first, then columns (docs/MATH.md §18:
    the twisted joins flip the other coordinate once per crossing)."""
    if topology == "plane":
        return (r, c) if 0 <= r < rows and 0 <= c < cols else None
    vertical = topology in ("torus", "klein", "projective")
    if not 0 <= r < rows:
        if not vertical:
            return None
        turns, r = divmod(r, rows)
        if topology == "projective" and turns % 2:
            c = cols - 1 - c
    if not 0 <= c < cols:
        turns, c = divmod(c, cols)
        if topology in ("moebius", "klein", "projective") and turns % 2:
            r = rows - 1 - r
    return r, c


CLASSIC = Rules()
