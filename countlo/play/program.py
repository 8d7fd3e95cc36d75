"""A game program as an oracle, over a line protocol on stdin/stdout.

The program prints the starting count on its first line. For each click countlo writes one
line "ROW COL" (1-based) and the program answers the new count on one line. A program that
dies, hangs past the timeout or prints anything but a count raises OracleError naming the
last exchange.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from typing import IO

from countlo.countboard import CountBoard, grid_only
from countlo.errors import CountloError, OracleError
from countlo.i18n import _, reason
from countlo.tokens import is_whole, shown


class ProgramCommandError(CountloError, ValueError):
    """A game program command line that cannot be run as written (empty, unbalanced quotes)."""


def program_argv(command: str | Sequence[str]) -> list[str]:
    """The argument list of a game program command, split as a POSIX shell would."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:  # "No closing quotation", "No escaped character"
            raise ProgramCommandError(_("cannot split the game program command {command}: {reason}").format(
                command=shown(command), reason=str(e).lower())) from None
    else:
        argv = list(command)
    if not argv:
        raise ProgramCommandError(_("the game program command is empty"))
    return argv


_ERROR_LINE = re.compile(r"\b\w*(Error|Exception)\b:|Cannot find module|No such file|not found")
_FOOTER = re.compile(r"^Node\.js v\d")  # node ends every crash report with its version


def telling_line(lines: list[str]) -> str:
    """The line of a program's error output that says what went wrong: the last one naming an
    error ('Error: Cannot find module ...', a Python exception), else the last line that is not
    blank, a closing brace or node's version footer."""
    for line in reversed(lines):
        if _ERROR_LINE.search(line):
            return line.strip()
    for line in reversed(lines):
        if line.strip() and line.strip() not in "{}[]" and not _FOOTER.match(line.strip()):
            return line.strip()
    return ""


_LONGEST_LINE = 1 << 16  # bytes read per line of the program's output
_LONGEST_WAIT = 86400.0


class ProgramOracle:
    """A running game program; use as a context manager (or call close()) to stop it."""

    def __init__(self, command: str | Sequence[str], shape: CountBoard, timeout: float = 5.0,
                 env: dict[str, str] | None = None):
        if not (isinstance(timeout, (int, float)) and 0 < timeout <= _LONGEST_WAIT):
            raise ValueError(f"timeout must be above 0 and at most {_LONGEST_WAIT:g} s")
        self.shape = shape
        self.timeout = timeout
        argv = program_argv(command)
        self.name = argv[0]
        try:
            # bytes, not text: a program printing invalid UTF-8 must not kill the reader thread
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env={**os.environ, **(env or {})},
            )
        except OSError as e:
            raise OracleError(_("cannot start game program {name!r}: {reason}").format(
                name=self.name, reason=reason(e))) from None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=40)
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        self.last = _("at the start")

    def _pump(self, stream: IO[bytes], out: queue.Queue[bytes | None]) -> None:
        try:
            while True:
                line = stream.readline(_LONGEST_LINE)
                if not line:
                    break
                out.put(line)
        except (OSError, ValueError):
            pass
        out.put(None)

    def _drain(self) -> None:
        assert self._proc.stderr is not None
        try:
            for line in self._proc.stderr:
                self._stderr.append(line[:_LONGEST_LINE].decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _read_count(self) -> int:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise OracleError(_("{last} the program printed nothing within {s} s").format(
                last=self.last, s=f"{self.timeout:g}")) from None
        if line is None:
            raise OracleError(_("{last} the program exited{note}").format(last=self.last, note=self._exit_note()))
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise OracleError(_("{last} the program printed {text}, which is not UTF-8 text").format(
                last=self.last, text=shown(line.strip().decode("utf-8", "replace")))) from None
        if not is_whole(text, 9):  # ASCII digits only: not '١٨', not '1_7'
            raise OracleError(_("{last} the program printed {text}, not a count").format(
                last=self.last, text=shown(text)))
        count = int(text)
        if not 0 <= count <= self.shape.cells:
            raise OracleError(_("{last} the program printed {count}, not a count of a {shape} board "
                                "(0-{cells})").format(last=self.last, count=count, shape=self.shape,
                                                      cells=self.shape.cells))
        return count

    def _exit_note(self) -> str:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return _(" (it closed its output)")
        # the program has exited: let the reader of its stderr reach the end, so its last words
        # (the error it died of) are not lost to the race between the two threads
        self._drainer.join(timeout=1.0)
        said = telling_line(list(self._stderr))
        tail = f": {said}" if said else ""
        return _(" (exit code {code})").format(code=code) + tail

    def start(self) -> int:
        """The starting count: the program's first line."""
        self.last = _("at the start")
        return self._read_count()

    def click(self, cell: int) -> int:
        """Send "ROW COL" (1-based) and read the new count."""
        c = grid_only(self.shape, "a game program (it is sent ROW COL)").cell(cell)
        try:
            extra: bytes | None = self._lines.get_nowait()
        except queue.Empty:
            extra = b""
        if extra is None:
            self._lines.put(None)  # the end of its output: read again by _read_count
        elif extra:  # more lines than clicks: say so, rather than misread the counts
            text = extra.decode("utf-8", "replace").strip()
            raise OracleError(_("{last} the program printed an extra line {text} (expected one count "
                                "per click)").format(last=self.last, text=shown(text)))
        self.last = _("after clicking {cell} (row {row} col {col})").format(cell=c.name, row=c.row + 1,
                                                                            col=c.col + 1)
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(f"{c.row + 1} {c.col + 1}\n".encode("ascii"))
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise OracleError(_("{last} the program had already exited{note}").format(
                last=self.last, note=self._exit_note())) from None
        return self._read_count()

    def extra_line(self, wait: float = 0.2) -> str | None:
        """A line the program printed beyond one per click, if one comes within `wait` seconds.

        Asked when its counts stop making sense: a program answering every click twice is then
        reported as printing extra lines, not as a contradiction of the board."""
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)
            return None
        return line.decode("utf-8", "replace").strip()

    def close(self) -> None:
        """Close the pipe and stop the program if it does not exit by itself."""
        proc = self._proc
        try:
            if proc.stdin and not proc.stdin.closed:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> ProgramOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
