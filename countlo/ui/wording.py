"""Every sentence countlo says about a game, in one place: the core hands over facts (advice,
what a count taught, how a game ended) and this module words them for people."""

from __future__ import annotations

from countlo.board import Shape, iter_bits
from countlo.hidden.diagnose import Fix
from countlo.play.advice import (
    Advice,
    AwaitStart,
    Contradiction,
    Done,
    Finish,
    GaveUp,
    Learned,
    Probe,
    Tally,
    Unclearable,
)
from countlo.play.game import Ending, Mismatch, ProgramFailed, Refused

UNDO_KEYS = "F2 or Esc u"

HELP = """\
Type the count the game shows after each click, then press Enter.
  17          the count after the suggested click
  C4, 4 3     you clicked another cell instead (then type its count)
  C4 17       another cell and its count on one line
  17!         insist on a count countlo calls impossible: a count before was
              mistyped, and countlo looks for it
  undo        take back the last step ({keys} does the same)
  fix 3 17    step 3 really showed 17 (fix 0 N: the starting count)
  history     every step so far, to spot a typo
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
Tab completes commands and cell names; Up and Down recall earlier lines.
"""

SIM_HELP = """\
The simulated game answers for you: press Enter to make the suggested click.
  C4, 4 3     click another cell instead
  undo        take back the last click ({keys} does the same)
  history     every step so far
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
"""


def amount(n: int) -> str:
    """A count of boards for people: 1,234 up to a million, then 2.5 million, 9.1 billion, and
    from a thousand trillion on 1.2e15, 1.1e77 (the digits cut, not rounded up)."""
    if n >= 10**15:
        digits = str(n)
        return f"{digits[0]}.{digits[1]}e{len(digits) - 1}"
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.1f} {word}"
    return f"{n:,}"


def plural(n: int, word: str) -> str:
    """'1 click', '2 clicks'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def boards(n: int, tally: Tally = Tally.EXACT) -> str:
    """'1 board', '24 boards', '9.1 billion boards'; 'about 1.1e77 boards' for an estimate,
    'at least 1,000 boards' for a lower bound."""
    text = "1 board" if n == 1 else f"{amount(n)} boards"
    return f"{tally.value} {text}" if tally.value else text


def many(n: int, tally: Tally = Tally.EXACT) -> str:
    """Every digit of an exact count ('1,024 boards'), else as `boards` says it."""
    return f"{n:,} boards" if tally is Tally.EXACT else boards(n, tally)


def where(step: int) -> str:
    """'the starting count' or 'step 7'."""
    return "the starting count" if step == 0 else f"step {step}"


def cells(shape: Shape, pattern: int) -> str:
    """The cells of a pattern by name, e.g. 'A1 B2 C3'."""
    return " ".join(shape.name(j) for j in iter_bits(pattern))


def fix_text(shape: Shape, fix: Fix, cells: list[int]) -> str:
    """One line for a typo fix, e.g. "step 14 (C3): you typed 17; 15 makes every count
    consistent" (`cells`: the clicked cells in order)."""
    at = where(fix.step) + ("" if fix.step == 0 else f" ({shape.name(cells[fix.step - 1])})")
    return f"{at}: you typed {fix.written}; {fix.suggested} makes every count consistent"


def typo_found(fix: Fix) -> str:
    """The sentence for a fix the guide applied by itself."""
    return (f"Typo found: {where(fix.step)} must have been {fix.suggested}, not {fix.written}; "
            "corrected and re-planned")


def finish_lead(advice: Finish) -> str:
    """Why a plan is being finished: 'Board known', or the guess it rests on."""
    if advice.guessed > 1:
        return f"{advice.guessed:,} boards fit and no click tells them apart; for one of them"
    return "Board known"


def _odd(shape: Shape) -> str:
    """The parity that proves it: odd for the dark goal; for a lit goal, the overlap's parity
    differs from the pattern's size (all lit would meet every one of its cells)."""
    if shape.goal:
        return "a number of cells whose parity differs from the pattern's size (all lit)"
    return "an odd number of cells"


def unclearable(shape: Shape, advice: Unclearable) -> str:
    """Why no press set clears the lights, with the quiet pattern that proves it."""
    if advice.listed:
        n = f"{advice.boards:,} boards" if advice.boards > 1 else "board"
        if advice.witness is None:
            why = (f"each meets one of the {advice.quiet} independent quiet patterns in "
                   f"{_odd(shape)}")
        else:
            why = f"each meets the quiet pattern {cells(shape, advice.witness)} in {_odd(shape)}"
        return f"None of the {n} still possible can be cleared: {why}"
    lead = (f"{advice.boards:,} boards fit and no click tells them apart; for one of them"
            if advice.guessed else "Board known")
    return (f"{lead}, but these lights cannot be cleared: they meet the quiet pattern "
            f"{cells(shape, advice.witness or 0)} in {_odd(shape)}")


def contradiction(advice: Contradiction) -> str:
    """What contradicting counts leave: the typos that would explain them, if any."""
    if not advice.fixes:
        return "These counts contradict each other and no single typo explains it"
    listed = "; ".join(f"{where(f.step)} {f.written} -> {f.suggested}" for f in advice.fixes)
    return f"These counts contradict each other; one of these typos explains it: {listed}"


def advice_text(shape: Shape, advice: Advice, strategy: str = "") -> str:
    """The advice as one sentence (logs, plain summaries, simulate's reasons)."""
    if isinstance(advice, AwaitStart):
        return f"Type the starting count (0-{advice.cells})"
    if isinstance(advice, Probe):
        if advice.cell is None:
            return f"{many(advice.boards, advice.tally)} possible: click any cell, then type its count"
        note = (f" ({strategy or 'the strategy'} has no more clicks; {many(advice.boards, advice.tally)} "
                "still fit)" if advice.exhausted else "")
        return f"Click {shape.name(advice.cell)}{note}"
    if isinstance(advice, Finish):
        steps = ", ".join(f"{shape.name(c)} ({n})" for c, n in advice.plan)
        return f"{finish_lead(advice)}: {len(advice.plan)} clicks to go: {steps}"
    if isinstance(advice, Done):
        return f"All lights {'on' if shape.goal else 'out'} after {advice.clicks} clicks"
    if isinstance(advice, GaveUp):
        return f"Gave up after {advice.clicks} clicks without clearing the board"
    if isinstance(advice, Unclearable):
        return unclearable(shape, advice)
    return contradiction(advice)


def learned_text(shape: Shape, learned: Learned) -> str:
    """What one count taught, e.g. 'C4 showed 17: 1,024 boards -> 96 boards'."""
    text = (f"{shape.name(learned.cell)} showed {learned.count}: "
            f"{boards(learned.possible_before, learned.tally_before)} -> "
            f"{boards(learned.possible_after, learned.tally_after)}")
    if learned.applied is not None:
        f = learned.applied
        return text + f"; {where(f.step)} must have been {f.suggested}, not {f.written}: corrected"
    if learned.stuck is not None:
        return text + "; " + advice_text(shape, learned.stuck)
    return text


def ending_text(shape: Shape, ending: Ending, strategy: str = "") -> str:
    """Why a whole game ended, in one sentence (simulate's per-game reasons)."""
    if isinstance(ending, Mismatch):
        return (f"after clicking {shape.name(ending.cell)} the game showed {ending.shown}, but the "
                f"counts before it predict {ending.expected}")
    if isinstance(ending, Refused):
        if ending.cell is None:
            return f"the game's starting count is impossible: {ending.error}"
        return f"the game contradicts itself: {ending.error}"
    if isinstance(ending, ProgramFailed):
        return ending.error
    return advice_text(shape, ending, strategy)
