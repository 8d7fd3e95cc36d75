"""The two front ends of a guided session: a prompt_toolkit prompt, or plain lines for pipes.

In a terminal the prompt's message is the whole picture (last step, board, advice, question),
so the board always sits directly above the input line and each accepted prompt is erased and
replaced by a one-line log of the step: the scrollback holds the game's history, the screen's
bottom the live board. A refused line is cleared and its reason printed above the prompt,
wrapped to the terminal's width.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from countlo.i18n import _
from countlo.ui.layout import fit, narrow_note, status_bar
from countlo.ui.picture import Fragments, picture_width, plain, styles
from countlo.ui.session import Session
from countlo.ui.wording import UNDO_KEYS


def wants_colour(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """True unless NO_COLOR is set (to anything non-empty) or `stream` is not a terminal."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def light_background(choice: str | None = None, environ: dict[str, str] | None = None) -> bool:
    """Whether the terminal's background is light: `choice` ('light', 'dark') when given, else
    what the terminal says in COLORFGBG ('fg;bg', set by rxvt, Konsole, iTerm2 and others:
    colours 7 and 9-15 are light), else dark (the common default)."""
    if choice in ("light", "dark"):
        return choice == "light"
    env = os.environ if environ is None else environ
    last = env.get("COLORFGBG", "").split(";")[-1].strip()
    if not last.isascii() or not last.isdigit():
        return False
    bg = int(last)
    return bg == 7 or 9 <= bg <= 15


def interactive(stdin: TextIO, stdout: TextIO) -> bool:
    """True when both ends are terminals, so the prompt_toolkit front end can run."""
    try:
        return stdin.isatty() and stdout.isatty()
    except (AttributeError, ValueError):
        return False


def run_terminal(session: Session, input=None, output=None, colour: bool = True, light: bool = False) -> None:
    """Run the session behind a prompt_toolkit prompt until it is over or the player leaves."""
    from prompt_toolkit import PromptSession, print_formatted_text
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.styles import Style

    style = Style.from_dict(styles(light))
    depth = None if colour else ColorDepth.DEPTH_1_BIT

    # No validator: a refused line is taken, cleared from the input and its reason printed
    # above the prompt, wrapped to the width (a validator's one-line toolbar cut it at the
    # edge, and left the refused text in the input, so typing "23!" after it gave "2323!").

    keys = KeyBindings()

    @keys.add("f2")
    @keys.add("escape", "u")
    def _undo(event) -> None:
        buffer = event.app.current_buffer
        buffer.text = "undo"
        buffer.validate_and_handle()  # no validator: this just accepts the line

    prompt: PromptSession[str] = PromptSession(
        input=input, output=output, style=style, color_depth=depth, key_bindings=keys,
        completer=WordCompleter(session.words(), ignore_case=True), complete_while_typing=False,
        reserve_space_for_menu=0, history=InMemoryHistory(), erase_when_done=True,
    )

    def width() -> int:
        return prompt.app.output.get_size().columns

    def say(fragments: Fragments) -> None:
        if fragments:
            print_formatted_text(FormattedText(fit(fragments, width())), style=style,
                                 output=output, color_depth=depth, end="")

    say(session.greeting())
    note = narrow_note(width(), picture_width(session.shape))
    if note is not None:
        say([("class:warn", note + "\n")])
    while not session.over:
        columns = width()
        session.width = columns
        message = FormattedText(fit(session.prompt(), columns))
        toolbar = FormattedText(status_bar(session.toolbar(), columns))
        try:
            text = prompt.prompt(message, bottom_toolbar=toolbar)
        except (KeyboardInterrupt, EOFError):
            say(session.leave())
            break
        # a decision can take seconds under load: a mark in place of the erased prompt says so,
        # and is wiped before the step's log line is printed
        screen = prompt.app.output
        screen.write(" " + _("thinking..."))
        screen.flush()
        answer = session.handle(text)
        screen.write("\r")
        screen.erase_end_of_line()
        screen.flush()
        say(answer)


def run_lines(session: Session, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """Run the session over plain lines: prompt, read a line, refuse or apply it, repeat."""
    stdout.write(plain(session.greeting()))
    while not session.over:
        stdout.write(plain(session.prompt(status=True)))
        stdout.flush()
        try:
            line = stdin.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            stdout.write("\n" + plain(session.leave()))
            break
        if not stdin.isatty():
            stdout.write(line if line.endswith("\n") else line + "\n")  # echo what a pipe typed
        reason = session.check(line)
        if reason is not None:
            stdout.write(f"! {reason}\n")
            continue
        stdout.write(plain(session.handle(line)))
    stdout.flush()


__all__ = ["UNDO_KEYS", "interactive", "light_background", "run_lines", "run_terminal", "wants_colour"]
