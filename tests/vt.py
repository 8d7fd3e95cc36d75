"""A terminal of a fixed size for tests: what a person would see on it, as lines of text.

`Screen` is a pyte screen that answers the cursor position requests (CPR) prompt_toolkit sends,
as a real terminal does: without the answers prompt_toolkit never learns how many rows are below
the cursor and leaves out its bottom toolbar (the status bar). Two ways to drive it:

- in-process: `Screen.output()` is a prompt_toolkit Vt100 output drawing on the screen, to pass
  with a pipe input (`Screen.answer_to(pipe)` sends the CPR answers into that pipe);
- a real pseudo-terminal: `Pty` spawns `python -m countlo ...` with pexpect and feeds everything
  it prints to the screen.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable

import pyte
from conftest import ROOT


class Screen:
    """A rows x columns terminal screen; thread-safe to feed and to read."""

    def __init__(self, columns: int, rows: int = 24):
        self.columns, self.rows = columns, rows
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.lock = threading.RLock()
        self.screen.write_process_input = self._reply  # type: ignore[method-assign]
        self.replies: Callable[[str], None] | None = None
        self.printed = ""  # everything written to the screen, escape sequences included

    def _reply(self, data: str) -> None:
        if self.replies is not None:
            self.replies(data)

    def feed(self, data: str) -> None:
        with self.lock:
            self.printed += data
            self.stream.feed(data)

    def lines(self) -> list[str]:
        """The screen as a person sees it: each row without trailing spaces, the blank rows at the
        bottom left out."""
        with self.lock:
            shown = [row.rstrip() for row in self.screen.display]
        while shown and not shown[-1]:
            shown.pop()
        return shown

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait_for(self, pattern: str, timeout: float = 30, count: int = 1) -> list[str]:
        """The screen once `pattern` (a regular expression) shows on it `count` times."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(re.findall(pattern, self.text())) >= count:
                return self.lines()
            time.sleep(0.02)
        raise AssertionError(f"{pattern!r} not on the screen:\n" + self.text())

    # --- in-process -----------------------------------------------------------------------
    def output(self):
        """A prompt_toolkit output drawing on this screen (xterm, 256 colours)."""
        from prompt_toolkit.data_structures import Size
        from prompt_toolkit.output.vt100 import Vt100_Output

        screen = self

        class Stdout:
            encoding = "utf-8"

            def write(self, data: str) -> int:
                screen.feed(data)
                return len(data)

            def flush(self) -> None:
                pass

            def isatty(self) -> bool:
                return True

        return Vt100_Output(Stdout(), lambda: Size(rows=self.rows, columns=self.columns),  # type: ignore[arg-type]
                            term="xterm-256color")

    def answer_to(self, pipe) -> None:
        """Send the terminal's answers (cursor positions) into a prompt_toolkit pipe input."""
        self.replies = pipe.send_text


class Pty:
    """`python -m countlo ARGS` in a pseudo-terminal of `columns` x `rows`, drawn on a Screen."""

    def __init__(self, args: list[str], columns: int, rows: int = 24, cwd: str | None = None,
                 env: dict[str, str] | None = None):
        import pexpect

        self.screen = Screen(columns, rows)
        environ = dict(os.environ)
        environ.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", COLUMNS=str(columns),
                       LINES=str(rows), NO_COLOR="1")
        environ.pop("PROMPT_TOOLKIT_NO_CPR", None)  # this terminal answers them
        environ.update(env or {})
        self.child = pexpect.spawn(sys.executable, ["-m", "countlo", *args], env=environ,
                                   cwd=cwd or str(ROOT), dimensions=(rows, columns),
                                   encoding="utf-8", timeout=30)
        self.screen.replies = self.child.send
        self.done = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import pexpect

        while True:
            try:
                self.screen.feed(self.child.read_nonblocking(65536, timeout=0.1))
            except pexpect.TIMEOUT:
                continue
            except (pexpect.EOF, OSError):
                self.done = True
                return

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def wait_for(self, pattern: str, timeout: float = 30, count: int = 1) -> list[str]:
        return self.screen.wait_for(pattern, timeout, count)

    def wait_exit(self, timeout: float = 30) -> int:
        end = time.monotonic() + timeout
        while not self.done and time.monotonic() < end:
            time.sleep(0.02)
        self._reader.join(1)
        self.child.close()
        assert self.done, "countlo did not end:\n" + self.screen.text()
        return self.child.exitstatus

    def close(self) -> None:
        if not self.done:
            self.child.terminate(force=True)
        self._reader.join(1)
