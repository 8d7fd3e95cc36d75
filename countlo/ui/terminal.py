"""The two front ends of a guided session: a prompt_toolkit prompt, or plain lines for pipes.

In a terminal the prompt's message is the whole picture (last step, board, advice, question),
so the board always sits directly above the input line and each accepted prompt is erased and
replaced by a one-line log of the step: the scrollback holds the game's history, the screen's
bottom the live board. A refused line is cleared and its reason printed above the prompt,
wrapped to the terminal's width.
"""

from __future__ import annotations

import os
import select
import sys
from typing import TYPE_CHECKING, Protocol, TextIO

from countlo.i18n import _
from countlo.ui.layout import fit, narrow_note, status_bar
from countlo.ui.picture import Fragments, picture_width, plain, styles
from countlo.ui.session import Session
from countlo.ui.wording import UNDO_KEYS

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyPressEvent
    from prompt_toolkit.output import Output

    from countlo.ui.bridge import Bridge

WOKEN = "\x00countlo: the page sent something\x00"
"""What a prompt returns when the game page interrupts it (never a typed line)."""


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


def run_terminal(session: Session, input: Input | None = None, output: Output | None = None, colour: bool = True,
                 bridge: Bridge | None = None, light: bool = False) -> None:
    """Run the session behind a prompt_toolkit prompt until it is over or the player leaves.

    With a `bridge` (countlo play --listen), whatever the game page sends interrupts the prompt
    (keeping what was typed so far), is applied on this thread, and the prompt comes back."""
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
    def _undo(event: KeyPressEvent) -> None:
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
    kept = ""  # typed before the page interrupted the prompt

    def interrupt() -> None:
        app = prompt.app
        if app.is_running and not app.is_done:
            app.exit(result=WOKEN + app.current_buffer.text)

    def listen() -> None:  # runs once the prompt is up, in its event loop
        loop = prompt.app.loop  # the running prompt's event loop (set before pre_run is called)
        if bridge is not None and loop is not None:
            bridge.waker = lambda: loop.call_soon_threadsafe(interrupt)
            if bridge.busy():
                interrupt()

    while not session.over:
        if bridge is not None:
            say(bridge.take(session))
            if session.over:
                break
        columns = width()
        session.width = columns
        message = FormattedText(fit(session.prompt(), columns))
        toolbar = FormattedText(status_bar(session.toolbar(), columns))
        try:
            text = prompt.prompt(message, bottom_toolbar=toolbar, default=kept, pre_run=listen)
        except (KeyboardInterrupt, EOFError):
            say(session.leave())
            break
        finally:
            if bridge is not None:
                bridge.waker = None
        kept = ""
        if text.startswith(WOKEN):
            kept = text[len(WOKEN):]
            continue
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
        if bridge is not None:
            assert isinstance(session, Session)
            bridge.publish(session)


LINE_CHARS = 4096  # the longest line read as a move from a pipe (docs/limits.md)


class Lines:
    """Lines read from a file descriptor as they come, or None when the bridge has news first
    (select() on both; the lines are read here, not by a buffered reader, so none waits unseen
    in a buffer while select() sleeps). A line longer than LINE_CHARS is cut there and the rest
    read and dropped, never kept whole; `long` says the last line was."""

    def __init__(self, stdin: TextIO, bridge: Bridge | None):
        self.stdin, self.bridge, self.buffer = stdin, bridge, b""
        self.long = False
        try:
            self.fd: int | None = stdin.fileno() if bridge is not None else None
        except (AttributeError, ValueError, OSError):
            self.fd = None

    def readline(self) -> str | None:
        if self.fd is None or self.bridge is None:
            line = self.stdin.readline(LINE_CHARS)
            self.long = bool(line) and not line.endswith("\n") and len(line) == LINE_CHARS
            while self.long and (rest := self.stdin.readline(LINE_CHARS)) and not rest.endswith("\n"):
                pass
            return line
        self.long = False
        while b"\n" not in self.buffer:
            if len(self.buffer) > LINE_CHARS:  # too long to be a move: keep its start, drop the rest
                self.buffer, self.long = self.buffer[:LINE_CHARS], True
            ready, _w, _x = select.select([self.fd, self.bridge.wake_fd], [], [])
            if self.bridge.wake_fd in ready:
                self.bridge.drain()
                if self.bridge.busy():
                    return None
            if self.fd in ready:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    break
                self.buffer += chunk
        text, sep, self.buffer = self.buffer.partition(b"\n")
        if self.long:
            text, sep = text[:LINE_CHARS], b""
        return (text + sep).decode("utf-8", "replace")


class LineSession(Protocol):
    """What run_lines needs of a session (the guided game's or practice's)."""

    over: bool

    def greeting(self) -> Fragments: ...
    def prompt(self, status: bool = False) -> Fragments: ...
    def check(self, text: str) -> str | None: ...  # why the line is refused, or None
    def handle(self, text: str) -> Fragments: ...
    def leave(self) -> Fragments: ...


def run_lines(session: LineSession, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
              bridge: Bridge | None = None) -> None:
    """Run the session over plain lines: prompt, read a line, refuse or apply it, repeat (and,
    with a `bridge`, apply what the game page sends as it comes: the guided game only)."""
    assert bridge is None or isinstance(session, Session)
    stdout.write(plain(session.greeting()))
    lines = Lines(stdin, bridge)
    while not session.over:
        if bridge is not None:
            assert isinstance(session, Session)
            stdout.write(plain(bridge.take(session)))
            if session.over:
                break
        stdout.write(plain(session.prompt(status=True)))
        stdout.flush()
        try:
            line = lines.readline()
        except KeyboardInterrupt:
            line = ""
        if line is None:  # the page sent something: it is applied at the top of the loop
            stdout.write("\n")
            continue
        long = lines.long
        if not line:
            stdout.write("\n" + plain(session.leave()))
            break
        if not stdin.isatty():  # echo what a pipe typed (a long line cut)
            shown = line if not long else line[:80] + "..."
            stdout.write(shown if shown.endswith("\n") else shown + "\n")
        reason = _("a line of more than {n} characters is not a move").format(n=LINE_CHARS) if long \
            else session.check(line)
        if reason is not None:
            stdout.write(f"! {reason}\n")
            continue
        stdout.write(plain(session.handle(line)))
        if bridge is not None:
            assert isinstance(session, Session)
            bridge.publish(session)
    stdout.flush()


__all__ = ["UNDO_KEYS", "LineSession", "interactive", "light_background", "run_lines", "run_terminal", "wants_colour"]
