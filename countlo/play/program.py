"""A game program as an oracle, over a line protocol on stdin/stdout.

The program prints the starting count on its first line. For each click countlo writes one
line "ROW COL" (1-based) and the program answers the new count on one line. A program that
dies, hangs past the timeout or prints anything but a count raises OracleError naming the
last exchange.
"""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
from collections import deque
from collections.abc import Sequence

from countlo.board import Shape
from countlo.errors import OracleError


class ProgramOracle:
    """A running game program; use as a context manager (or call close()) to stop it."""

    def __init__(self, command: str | Sequence[str], shape: Shape, timeout: float = 5.0,
                 env: dict[str, str] | None = None):
        self.shape = shape
        self.timeout = timeout
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise OracleError("empty game program command")
        self.name = argv[0]
        try:
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, env={**os.environ, **(env or {})},
            )
        except OSError as e:
            raise OracleError(f"cannot start game program {self.name!r}: {e.strerror or e}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=5)
        threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self.last = "at the start"

    def _pump(self, stream, out: queue.Queue) -> None:
        for line in stream:
            out.put(line)
        out.put(None)

    def _drain(self) -> None:
        for line in self._proc.stderr:
            self._stderr.append(line.rstrip())

    def _read_count(self) -> int:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise OracleError(
                f"{self.last} the program printed nothing within {self.timeout:g} s"
            ) from None
        if line is None:
            raise OracleError(f"{self.last} the program exited{self._exit_note()}")
        text = line.strip()
        try:
            count = int(text)
        except ValueError:
            raise OracleError(f"{self.last} the program printed {text!r}, not a count") from None
        if not 0 <= count <= self.shape.cells:
            raise OracleError(
                f"{self.last} the program printed {count}, not a count of a {self.shape} board "
                f"(0-{self.shape.cells})"
            )
        return count

    def _exit_note(self) -> str:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return " (it closed its output)"
        tail = f": {self._stderr[-1]}" if self._stderr else ""
        return f" (exit code {code}){tail}"

    def start(self) -> int:
        """The starting count: the program's first line."""
        self.last = "at the start"
        return self._read_count()

    def click(self, cell: int) -> int:
        """Send "ROW COL" (1-based) and read the new count."""
        c = self.shape.cell(cell)
        self.last = f"after clicking {c.name} (row {c.row + 1} col {c.col + 1})"
        try:
            self._proc.stdin.write(f"{c.row + 1} {c.col + 1}\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise OracleError(f"{self.last} the program had already exited{self._exit_note()}") from None
        return self._read_count()

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

    def __exit__(self, *exc) -> None:
        self.close()
