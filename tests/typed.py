"""Keys typed into a session's prompt_toolkit front end with no terminal: a pipe for the input,
DummyOutput (or the output a test reads the screen from) for the output."""

from __future__ import annotations

from typing import Any


def drive(session: Any, keys: str, output: Any = None) -> None:
    """Run `countlo.ui.terminal.run_terminal` on `session` with `keys` as typed input; the input
    ends after them."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from countlo.ui.terminal import run_terminal

    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        run_terminal(session, input=pipe, output=DummyOutput() if output is None else output)
