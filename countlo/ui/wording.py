"""Every sentence countlo says about a game, in one place: the core hands over facts (advice,
what a count taught, how a game ended) and this module words them for people."""

from __future__ import annotations

from countlo.board import iter_bits
from countlo.countboard import CountBoard
from countlo.hidden.diagnose import Fix
from countlo.hidden.explain import Missed, Mistake, OtherCell, StartAside
from countlo.i18n import N_, _, language, ngettext
from countlo.play.advice import (
    Advice,
    AwaitStart,
    Contradiction,
    Done,
    Doubt,
    Finish,
    GaveUp,
    Learned,
    Probe,
    Tally,
    Unclearable,
)
from countlo.play.game import Ending, Mismatch, ProgramFailed, Refused
from countlo.play.outlook import Outlook

UNDO_KEYS = N_("F2 or Esc u")  # the toolbar shows its first word, the key itself


def undo_keys() -> str:
    """The keys that undo, as the help and the stuck prompt name them."""
    return _(UNDO_KEYS)


HELP = N_("""\
Type the count the game shows after each click, then press Enter.
  17          the count after the suggested click
  C4, 4 3     you clicked another cell instead (then type its count)
  C4 17       another cell and its count on one line
  17!, !      insist on a count countlo calls impossible (! alone: the one just
              refused); countlo then asks which mistake explains it
  undo        take back the last step ({keys} does the same)
  fix 3 17    step 3 really showed 17 (fix 0 N: the starting count)
  fix 3 D4    step 3's click was on D4 (fix 3 -: it did not register)
  restart     begin again from the count the game shows now
  history     every step so far, to spot a typo
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
Tab completes commands and cell names; Up and Down recall earlier lines.
""")

SIM_HELP = N_("""\
The simulated game answers for you: press Enter to make the suggested click.
  C4, 4 3     click another cell instead
  undo        take back the last click ({keys} does the same)
  history     every step so far
  board       the board picture with its legend
  quit        leave; the transcript is kept (Ctrl-C and Ctrl-D too)
""")


def amount(n: int) -> str:
    """A count of boards for people: 1,234 up to a million, then 2.5 million, 9.1 billion
    (in Chinese: 1,234 up to a million, then 250.0万, 91.0亿), and from a thousand trillion on
    1.2e15, 1.1e77 (the digits cut, not rounded up)."""
    if n >= 10**15:
        digits = str(n)
        return f"{digits[0]}.{digits[1]}e{len(digits) - 1}"
    if language() == "zh":
        for size, word in ((10**12, "万亿"), (10**8, "亿"), (10**6, "万")):
            if n >= size:
                unit = 10**4 if size == 10**6 else size
                return f"{n / unit:.1f}{word}"
        return f"{n:,}"
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.1f} {word}"
    return f"{n:,}"


def clicks(n: int) -> str:
    """'1 click', '2 clicks'."""
    return ngettext("{n} click", "{n} clicks", n).format(n=n)


def boards(n: int, tally: Tally = Tally.EXACT) -> str:
    """'1 board', '24 boards', '9.1 billion boards'; 'about 1.1e77 boards' for an estimate,
    'at least 1,000 boards' for a lower bound."""
    return tallied(ngettext("{n} board", "{n} boards", n).format(n=amount(n)), tally)


def many(n: int, tally: Tally = Tally.EXACT) -> str:
    """Every digit of an exact count ('1,024 boards'), else as `boards` says it."""
    if tally is Tally.EXACT:
        return ngettext("{n} board", "{n} boards", n).format(n=f"{n:,}")
    return boards(n, tally)


def tallied(text: str, tally: Tally) -> str:
    """A number of boards said as exact, an estimate or a lower bound."""
    if tally is Tally.ABOUT:
        return _("about {boards}").format(boards=text)
    if tally is Tally.AT_LEAST:
        return _("at least {boards}").format(boards=text)
    return text


def where(step: int) -> str:
    """'the starting count' or 'step 7'."""
    return _("the starting count") if step == 0 else _("step {step}").format(step=step)


def cells(shape: CountBoard, pattern: int) -> str:
    """The cells of a pattern by name, e.g. 'A1 B2 C3'."""
    return " ".join(shape.name(j) for j in iter_bits(pattern))


def fix_text(shape: CountBoard, fix: Fix, cells: list[int]) -> str:
    """One line for a typo fix, e.g. "step 14 (C3): you typed 17; 15 makes every count
    consistent" (`cells`: the clicked cells in order)."""
    at = where(fix.step) + ("" if fix.step == 0 else f" ({shape.name(cells[fix.step - 1])})")
    return _("{at}: you typed {written}; {suggested} makes every count consistent").format(
        at=at, written=fix.written, suggested=fix.suggested)


def must_have_been(fix: Fix) -> str:
    """'step 3 must have been 15, not 17: corrected'."""
    return _("{where} must have been {suggested}, not {written}: corrected").format(
        where=where(fix.step), suggested=fix.suggested, written=fix.written)


def typo_found(fix: Fix) -> str:
    """The sentence for a fix the guide applied by itself."""
    return _("Typo found: {where} must have been {suggested}, not {written}; "
             "corrected and re-planned").format(where=where(fix.step), suggested=fix.suggested,
                                                written=fix.written)


def finish_lead(advice: Finish) -> str:
    """Why a plan is being finished: 'Board known', or the guess it rests on."""
    if advice.guessed > 1:
        return _("{n} boards fit and no click tells them apart; for one of them").format(
            n=f"{advice.guessed:,}")
    return _("Board known")


def _odd(shape: CountBoard) -> str:
    """The parity that proves it: odd for the dark goal; for a lit goal, the overlap's parity
    differs from the pattern's size (all lit would meet every one of its cells)."""
    if shape.goal:
        return _("a number of cells whose parity differs from the pattern's size (all lit)")
    return _("an odd number of cells")


def unclearable(shape: CountBoard, advice: Unclearable) -> str:
    """Why no press set clears the lights, with the quiet pattern that proves it."""
    if advice.listed:
        if advice.witness is None:
            why = _("each meets one of the {n} independent quiet patterns in {odd}").format(
                n=advice.quiet, odd=_odd(shape))
        else:
            why = _("each meets the quiet pattern {cells} in {odd}").format(
                cells=cells(shape, advice.witness), odd=_odd(shape))
        if advice.boards > 1:
            return _("None of the {n} boards still possible can be cleared: {why}").format(
                n=f"{advice.boards:,}", why=why)
        return _("None of the board still possible can be cleared: {why}").format(why=why)
    lead = (_("{n} boards fit and no click tells them apart; for one of them").format(n=f"{advice.boards:,}")
            if advice.guessed else _("Board known"))
    return _("{lead}, but these lights cannot be cleared: they meet the quiet pattern {cells} in "
             "{odd}").format(lead=lead, cells=cells(shape, advice.witness or 0), odd=_odd(shape))


def contradiction(advice: Contradiction) -> str:
    """What contradicting counts leave: the typos that would explain them, if any."""
    if not advice.fixes:
        return _("These counts contradict each other and no single typo explains it")
    listed = "; ".join(f"{where(f.step)} {f.written} -> {f.suggested}" for f in advice.fixes)
    return _("These counts contradict each other; one of these typos explains it: {listed}").format(
        listed=listed)


def advice_text(shape: CountBoard, advice: Advice, strategy: str = "") -> str:
    """The advice as one sentence (logs, plain summaries, simulate's reasons)."""
    if isinstance(advice, AwaitStart):
        return _("Type the starting count (0-{cells})").format(cells=advice.cells)
    if isinstance(advice, Probe):
        if advice.cell is None:
            return _("{boards} possible: click any cell, then type its count").format(
                boards=many(advice.boards, advice.tally))
        if advice.exhausted:
            return _("Click {cell} ({strategy} has no more clicks; {boards} still fit)").format(
                cell=shape.name(advice.cell), strategy=strategy or _("the strategy"),
                boards=many(advice.boards, advice.tally))
        return _("Click {cell}").format(cell=shape.name(advice.cell))
    if isinstance(advice, Finish):
        steps = ", ".join(f"{shape.name(c)} ({n})" for c, n in advice.plan)
        return _("{lead}: {clicks} to go: {steps}").format(
            lead=finish_lead(advice), clicks=clicks(len(advice.plan)), steps=steps)
    if isinstance(advice, Done):
        if shape.goal:
            return _("All lights on after {clicks}").format(clicks=clicks(advice.clicks))
        return _("All lights out after {clicks}").format(clicks=clicks(advice.clicks))
    if isinstance(advice, GaveUp):
        return _("Gave up after {clicks} without clearing the board").format(
            clicks=clicks(advice.clicks))
    if isinstance(advice, Unclearable):
        return unclearable(shape, advice)
    if isinstance(advice, Doubt):
        return doesnt_fit(shape, advice)
    return contradiction(advice)


def doesnt_fit(shape: CountBoard, doubt: Doubt) -> str:
    """'13 after D2 does not fit the counts before it'."""
    return _("{count} after {cell} does not fit the counts before it").format(
        count=doubt.count, cell=shape.name(doubt.clicked))


def _step_cell(shape: CountBoard, step: int, cells: list[int]) -> str:
    return shape.name(cells[step - 1])


def mistake_text(shape: CountBoard, mistake: Mistake, doubt: Doubt, cells: list[int]) -> str:
    """What went wrong if `mistake` did, e.g. 'you clicked D3, not D2' (`cells`: every click
    so far, the doubted one last)."""
    newest = mistake.step == doubt.step
    if isinstance(mistake, StartAside):
        return _("the starting count {written} fits none of the later counts: set aside (they fit "
                 "{likeliest} best)").format(written=mistake.written, likeliest=mistake.likeliest)
    if isinstance(mistake, OtherCell):
        if newest:
            return _("you clicked {clicked}, not {typed}").format(
                clicked=shape.name(mistake.clicked), typed=shape.name(mistake.typed))
        return _("step {step} was a click on {clicked}, not {typed}").format(
            step=mistake.step, clicked=shape.name(mistake.clicked), typed=shape.name(mistake.typed))
    if isinstance(mistake, Missed):
        if newest:
            return _("the click on {cell} did not register (the count did not change)").format(
                cell=shape.name(mistake.cell))
        return _("step {step}'s click on {cell} did not register").format(
            step=mistake.step, cell=shape.name(mistake.cell))
    if mistake.step == 0:
        return _("the starting count was {suggested}, not {written}").format(
            suggested=mistake.suggested, written=mistake.written)
    if newest:
        return _("the game shows {suggested}, not {written}").format(
            suggested=mistake.suggested, written=mistake.written)
    return _("step {step} ({cell}) showed {suggested}, not {written}").format(
        step=mistake.step, cell=_step_cell(shape, mistake.step, cells), suggested=mistake.suggested,
        written=mistake.written)


def mistake_question(shape: CountBoard, mistake: Mistake, doubt: Doubt, cells: list[int]) -> str:
    """The mistake asked about, e.g. 'Did you click D3?', 'Was the count 15?'."""
    newest = mistake.step == doubt.step
    if isinstance(mistake, StartAside):
        return _("Was the starting count wrong?")
    if isinstance(mistake, OtherCell):
        if newest:
            return _("Did you click {cell}?").format(cell=shape.name(mistake.clicked))
        return _("Was step {step} a click on {cell}?").format(step=mistake.step,
                                                                 cell=shape.name(mistake.clicked))
    if isinstance(mistake, Missed):
        if newest:
            return _("Did the click on {cell} fail to register?").format(cell=shape.name(mistake.cell))
        return _("Did step {step}'s click fail to register?").format(step=mistake.step)
    if mistake.step == 0:
        return _("Was the starting count {count}?").format(count=mistake.suggested)
    if newest:
        return _("Was the count {count}?").format(count=mistake.suggested)
    return _("Was step {step}'s count {count}?").format(step=mistake.step, count=mistake.suggested)


def answer_text(shape: CountBoard, mistake: Mistake, doubt: Doubt) -> str:
    """What to type to say it was `mistake`: the cell or the count for the click just made,
    else a fix line (fix STEP COUNT, fix STEP CELL, fix STEP -)."""
    newest = mistake.step == doubt.step
    if isinstance(mistake, OtherCell):
        return shape.name(mistake.clicked) if newest else f"fix {mistake.step} {shape.name(mistake.clicked)}"
    if isinstance(mistake, Missed | StartAside):
        return f"fix {mistake.step} -"
    return str(mistake.suggested) if newest else f"fix {mistake.step} {mistake.suggested}"


def doubt_question(shape: CountBoard, doubt: Doubt, cells: list[int], most: int = 2) -> str:
    """The question in one line: '13 after D2 does not fit. Did you click D3? Or was the count 15?'."""
    asked = [mistake_question(shape, s.mistake, doubt, cells) for s in doubt.suspects[:most]]
    if not asked:
        return _("{what}, and no single mistake explains it.").format(what=doesnt_fit(shape, doubt))
    gap = "" if language() == "zh" else " "  # Chinese sentences follow one another without a space
    text = _("{what}.").format(what=doesnt_fit(shape, doubt)) + gap + asked[0]
    for q in asked[1:]:
        text += gap + _("Or {question}").format(question=q[:1].lower() + q[1:])
    return text


def corrected_text(shape: CountBoard, mistake: Mistake, doubt: Doubt, cells: list[int]) -> str:
    """The line after an answer: 'Corrected: you clicked D3, not D2.'."""
    if isinstance(mistake, Missed) and mistake.step == doubt.step:
        return _("Taken back: the click on {cell} did not register; click it again.").format(
            cell=shape.name(mistake.cell))
    return _("Corrected: {what}.").format(what=mistake_text(shape, mistake, doubt, cells))


def learned_text(shape: CountBoard, learned: Learned) -> str:
    """What one count taught, e.g. 'C4 showed 17: 1,024 boards -> 96 boards'."""
    text = _("{cell} showed {count}: {before} -> {after}").format(
        cell=shape.name(learned.cell), count=learned.count,
        before=boards(learned.possible_before, learned.tally_before),
        after=boards(learned.possible_after, learned.tally_after))
    if learned.applied is not None:
        return text + "; " + must_have_been(learned.applied)
    if learned.stuck is not None:
        return text + "; " + advice_text(shape, learned.stuck)
    return text


def ending_text(shape: CountBoard, ending: Ending, strategy: str = "") -> str:
    """Why a whole game ended, in one sentence (simulate's per-game reasons)."""
    if isinstance(ending, Mismatch):
        return _("after clicking {cell} the game showed {shown}, but the counts before it "
                 "predict {expected}").format(cell=shape.name(ending.cell), shown=ending.shown,
                                              expected=ending.expected)
    if isinstance(ending, Refused):
        if ending.cell is None:
            return _("the game's starting count is impossible: {error}").format(error=ending.error)
        return _("the game contradicts itself: {error}").format(error=ending.error)
    if isinstance(ending, ProgramFailed):
        return ending.error
    return advice_text(shape, ending, strategy)


def to_go(outlook: Outlook) -> str:
    """The clicks still to come while probing, said to be an estimate: 'about 27 clicks to go
    (an estimate)'."""
    n = outlook.rounded
    return ngettext("about {n} click to go (an estimate)", "about {n} clicks to go (an estimate)",
                    n).format(n=n)


NEEDED_CLICK = N_("needed whatever the board, so it costs nothing extra")



def marks_explained(kinds: set[str]) -> str:
    """What the marks of the picture mean ('+' needed, '-' never needed), for those shown."""
    out = []
    if "+" in kinds:
        out.append(_("+ after a cell: clearing the lights needs a click on it whatever the hidden "
                     "board is (the counts already settle it)."))
    if "-" in kinds:
        out.append(_("- after a cell: clearing the lights never needs it (a click there would "
                     "have to be undone), whatever the hidden board is."))
    return " ".join(out)
