"""What a player types at the guided-session prompt: a count, a cell (and count), or a command.

Accepted lines (case and spacing do not matter):
  17            the count shown after the suggested click ("start 17" for the first)
  C4   | 4 3    "I clicked C4 instead" (A1 name, or 1-based row and column); the count comes next
  C4 17 | 4 3 17 | C4=17 | C4: 17    a cell and the count it showed, on one line
  17! | C4 17!  insist on a count the record calls impossible (an earlier count was mistyped)
  !             insist on the count just refused
  (empty)       make the suggested click (simulated game) or repeat the prompt
  undo | help | board | history | quit | fix STEP COUNT | restart
  fix STEP CELL step STEP's click was on CELL; fix STEP - : it did not register
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from countlo.countboard import CountBoard, PressBoard
from countlo.errors import BadCellError, CountloError
from countlo.hidden.explain import Mistake
from countlo.i18n import _
from countlo.tokens import MAX_DIGITS, is_whole, shown


class EntryError(CountloError, ValueError):
    """A line typed at the session prompt that is not a count, a cell or a command."""


class Verb(str, Enum):
    """The commands that take nothing after them (and NEXT, the empty line)."""

    NEXT = "next"
    UNDO = "undo"
    HELP = "help"
    BOARD = "board"
    HISTORY = "history"
    QUIT = "quit"
    INSIST = "insist"
    RESTART = "restart"


WORDS = {
    "undo": Verb.UNDO, "u": Verb.UNDO, "back": Verb.UNDO,
    "help": Verb.HELP, "h": Verb.HELP, "?": Verb.HELP,
    "board": Verb.BOARD, "b": Verb.BOARD, "show": Verb.BOARD,
    "history": Verb.HISTORY, "hist": Verb.HISTORY,
    "quit": Verb.QUIT, "q": Verb.QUIT, "exit": Verb.QUIT, "bye": Verb.QUIT,
    "!": Verb.INSIST,
    "restart": Verb.RESTART,
}

COMMANDS = ("undo", "help", "board", "history", "fix", "restart", "quit")


@dataclass(frozen=True)
class Count:
    """A count alone: the starting count, or the count after the suggested click.
    `force` ("17!"): take it even though it contradicts the record."""

    count: int
    force: bool = False


@dataclass(frozen=True)
class Click:
    """A cell the player clicked, with the count it showed when typed on the same line."""

    cell: int
    count: int | None = None
    force: bool = False


@dataclass(frozen=True)
class FixCount:
    """"fix STEP COUNT": step STEP (0: the starting count) really showed COUNT."""

    step: int
    count: int


@dataclass(frozen=True)
class FixCell:
    """"fix STEP CELL": step STEP's click was really on CELL; "fix STEP -": it did not register
    (`cell` None)."""

    step: int
    cell: int | None


@dataclass(frozen=True)
class Answer:
    """The player's answer to a question about a count that did not fit: which mistake it was
    (the session makes it from a count, a cell, a fix or Enter)."""

    mistake: Mistake


@dataclass(frozen=True)
class Command:
    """A command that takes nothing after it, or NEXT for an empty line."""

    verb: Verb


Entry = Count | Click | FixCount | FixCell | Answer | Command


_CELL_COUNT = re.compile(r"^([A-Za-z]+\s*[0-9]+)(?:\s*(?:->|=>|[=:,;>])?\s*([0-9]+))?$")
_NUMBERS = re.compile(r"^[0-9]+(?:\s*[,\s]\s*[0-9]+)*$")


def _number(text: str, what: str, line: str) -> int:
    if not is_whole(text):  # ASCII digits of bounded length: '²' and 5,000 digits are refused
        if text.isascii() and text.isdigit():
            raise EntryError(_("{line}: {what} has more than {most} digits, not {text}").format(
                line=shown(line), what=what, most=MAX_DIGITS, text=shown(text)))
        raise EntryError(_("{line}: {what} must be a whole number, not {text}").format(
            line=shown(line), what=what, text=shown(text)))
    return int(text)


_LONGEST = 3 * MAX_DIGITS + 16  # no meaningful entry is longer; refused before any int()


def _named(words: list[str], shape: CountBoard) -> Click | None:
    """A click typed by a light's name on a board without a grid (a graph, a buttons table):
    NAME or NAME COUNT. A name comes before the one-letter commands (u, h, b, q), as in
    practice; a word command (undo, help, ...) and a count alone keep their meaning, and an
    unknown name is said with the lights there are."""
    if not isinstance(shape, PressBoard) or shape.grid is not None or len(words) > 2:
        return None
    word = words[0]
    if (len(word) > 1 and word.lower() in WORDS) or word.lower() in ("fix", "start") or word.isdigit():
        return None
    try:
        cell = shape.parse_cell(word)
    except BadCellError:
        if word.lower() in WORDS or word.endswith("!"):
            return None
        raise
    count = _number(words[1], _("the count"), " ".join(words)) if len(words) == 2 else None
    return Click(cell, count)


def parse_entry(line: str, shape: CountBoard) -> Entry:
    """The Entry a typed line means on a board of `shape`; EntryError or BadCellError if none."""
    # a Chinese input method types full-width digits and letters ('１９', 'Ｄ４'): NFKC reads those
    # forms as ASCII (here only, where a person types at the prompt; options and files stay ASCII;
    # other look-alike digits, '²' or '١٨', are still refused)
    text = "".join(unicodedata.normalize("NFKC", ch) if "\uff01" <= ch <= "\uff5e" or ch == "\u3000" else ch
                   for ch in line).strip()
    if not text:
        return Command(Verb.NEXT)
    if len(text) > _LONGEST:
        raise EntryError(_("{text} is too long to be a count, a cell or a command").format(text=shown(text)))
    words = text.split()
    first = words[0].lower()
    if first == "start" and len(words) == 2:  # "start 19", as the transcript writes it
        return Count(_number(words[1], _("the count"), text))
    if first == "fix":
        if len(words) != 3:
            raise EntryError(_("{text}: write 'fix STEP COUNT', e.g. 'fix 3 17' (step 0 is the "
                               "start)").format(text=shown(text)))
        step = _number(words[1], _("the step"), text)
        if words[2] == "-":
            return FixCell(step, None)
        if words[2][:1].isalpha():
            return FixCell(step, shape.parse_cell(words[2]))
        return FixCount(step, _number(words[2], _("the count"), text))
    named = _named(words, shape)
    if named is not None:
        return named
    verb = WORDS.get(first)
    if verb is not None:
        if len(words) > 1:
            raise EntryError(_("{text}: '{word}' takes nothing after it").format(
                text=shown(text), word=shown(words[0])[1:-1]))
        return Command(verb)
    force = text.endswith("!") and text[:-1].rstrip()[-1:].isdigit()
    if force:
        text = text[:-1].rstrip()
    m = _CELL_COUNT.match(text)
    if m:
        cell = shape.parse_cell(m.group(1))
        typed = _number(m.group(2), _("the count"), text) if m.group(2) is not None else None
        return Click(cell, typed, force and typed is not None)
    if _NUMBERS.match(text):
        numbers = [_number(n, _("each number"), text) for n in re.split(r"\s*[,\s]\s*", text)]
        if len(numbers) == 1:
            return Count(numbers[0], force)
        if len(numbers) in (2, 3):
            cell = shape.parse_cell(f"{numbers[0]} {numbers[1]}")
            third = numbers[2] if len(numbers) == 3 else None
            return Click(cell, third, force and third is not None)
        raise EntryError(_("{text}: too many numbers; type a count, or 'row col count'").format(
            text=shown(text)))
    raise EntryError(_("{text} is not a count, a cell like C4, or a command (type help)").format(
        text=shown(text)))
