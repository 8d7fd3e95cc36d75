"""A prompt under a clickable picture: the terminal front end of `countlo practice`.

The guided session's prompt (countlo.ui.terminal) is a prompt_toolkit PromptSession whose message
holds the picture; PromptSession splits a multi-line message into plain (style, text) pairs and
so drops mouse handlers. Here the picture is its own window above a one-line input, so the
handlers its fragments carry are called when a cell is clicked. Like the guided prompt, it draws
inline, is erased when a line is accepted, and the session's answer is printed above it; the
scrollback keeps the game's history. The picture is held on the bottom rows of the terminal
(where the terminal reports its cursor), so the board stays put as answers pile up above it.

The session is anything with `greeting()`, `board()`, `toolbar()`, `check(text)`,
`handle(text)`, `leave()`, `over`, `words()` and an `on_click` attribute (countlo.ui.practice):
the `Clickable` protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from countlo.ui.layout import fit, narrow_note, status_bar
from countlo.ui.picture import Fragments, styles

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyPressEvent
    from prompt_toolkit.output import Output


class Clickable(Protocol):
    """A session whose board can be clicked: text in, (style, text) fragments out."""

    over: bool
    on_click: Callable[[str], None] | None  # set here while the prompt runs: a cell's name as typed

    def greeting(self) -> Fragments: ...
    def board(self) -> StyleAndTextTuples: ...  # its cells carry mouse handlers calling on_click
    def toolbar(self) -> Fragments: ...
    def check(self, text: str) -> str | None: ...  # why the line is refused, or None
    def handle(self, text: str) -> Fragments: ...
    def leave(self) -> Fragments: ...
    def words(self) -> list[str]: ...  # what the prompt completes
    def board_width(self) -> int: ...  # columns the board takes
    def move_cursor(self, dr: int, dc: int) -> None: ...  # the arrow keys
    def cursor_name(self) -> str: ...  # what Space clicks


def run_clickable(session: Clickable, input: Input | None = None, output: Output | None = None,
                  colour: bool = True, light: bool = False) -> None:
    """Run the session until it is over or the player leaves (Ctrl-C, Ctrl-D)."""
    from prompt_toolkit import print_formatted_text
    from prompt_toolkit.application import Application
    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import ConditionalContainer, Dimension, HSplit, Layout, Window
    from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
    from prompt_toolkit.layout.processors import BeforeInput
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.output.defaults import create_output
    from prompt_toolkit.renderer import CPR_Support
    from prompt_toolkit.styles import Style

    style = Style.from_dict(styles(light))
    depth = None if colour else ColorDepth.DEPTH_1_BIT

    screen = create_output() if output is None else output

    def width() -> int:
        return screen.get_size().columns

    def say(fragments: Fragments) -> None:
        if fragments:
            print_formatted_text(FormattedText(fit(fragments, width())), style=style, output=screen,
                                 color_depth=depth, end="")

    def one_line() -> str:
        """Show the board and read one accepted line (KeyboardInterrupt / EOFError to leave)."""
        warning: Fragments = []

        def accept(buffer: Buffer) -> bool:
            reason = session.check(buffer.text)
            if reason is not None:
                warning[:] = fit([("class:warn", f"! {reason}")], width())
                buffer.text = ""
                return True  # keep the (emptied) text in the buffer, stay in the prompt
            app.exit(result=buffer.text)
            return False

        buffer = Buffer(multiline=False, accept_handler=accept,
                        completer=WordCompleter(session.words(), ignore_case=True),
                        complete_while_typing=False)

        def click(text: str) -> None:
            buffer.text = text
            buffer.validate_and_handle()

        session.on_click = click
        keys = KeyBindings()

        @keys.add("f2")
        @keys.add("escape", "u")
        def _undo(event: KeyPressEvent) -> None:
            click("undo")

        empty = Condition(lambda: not buffer.text)  # the keys move the cursor only when nothing is typed

        for key, step in (("up", (-1, 0)), ("down", (1, 0)), ("left", (0, -1)), ("right", (0, 1))):
            @keys.add(key, filter=empty)
            def _move(event: KeyPressEvent, step: tuple[int, int] = step) -> None:
                session.move_cursor(*step)

        @keys.add("space", filter=empty)
        def _press(event: KeyPressEvent) -> None:
            click(session.cursor_name())

        @keys.add("delete", filter=empty)
        def _press_back(event: KeyPressEvent) -> None:
            click("-" + session.cursor_name())

        @keys.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            event.app.exit(exception=KeyboardInterrupt)

        @keys.add("c-d")
        def _eof(event: KeyPressEvent) -> None:
            if not buffer.text:
                event.app.exit(exception=EOFError)

        def placed() -> bool:
            """Whether the rows below the cursor are known (the terminal answered the cursor
            position request), or never will be: only then is the board drawn, so it is never
            seen, nor clicked, where it stood for a moment before the answer came."""
            return app.renderer.height_is_known or app.renderer.cpr_support is CPR_Support.NOT_SUPPORTED

        body = HSplit([
            # the free rows below the answers so far: the board sits on the bottom rows of the
            # terminal, in the same place for every move, so a mouse click after an answer is
            # printed above still lands on the cell the player aimed at (issue 26, item 9)
            ConditionalContainer(HSplit([
                Window(),
                Window(FormattedTextControl(lambda: session.board()), dont_extend_height=True),
            ]), filter=Condition(placed)),
            Window(BufferControl(buffer, input_processors=[BeforeInput("> ")]), height=1),
            Window(FormattedTextControl(lambda: FormattedText(warning)), height=Dimension(min=1),
                   dont_extend_height=True),
            ConditionalContainer(  # drawn with the board, so both are seen in their place at once
                Window(FormattedTextControl(lambda: FormattedText(status_bar(session.toolbar(), width()))),
                       height=1, style="class:bottom-toolbar"), filter=Condition(placed)),
        ])
        app: Application[str] = Application(
            layout=Layout(body, focused_element=buffer), key_bindings=keys, style=style,
            mouse_support=True, erase_when_done=True, input=input, output=screen,
            color_depth=depth)
        return app.run()

    say(session.greeting())
    note = narrow_note(width(), session.board_width())
    if note is not None:
        say([("class:warn", note + "\n")])
    try:
        while not session.over:
            try:
                text = one_line()
            except (KeyboardInterrupt, EOFError):
                say(session.leave())
                break
            say(session.handle(text))
    finally:
        session.on_click = None
