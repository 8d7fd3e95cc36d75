"""The terminal companion of `countlo play`: the session (text in, fragments out), what it shows,
the words it uses, and the prompt_toolkit or plain-line front ends."""

from countlo.lazy import attributes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.ui.session import Session
    from countlo.ui.terminal import interactive, run_lines, run_terminal, wants_colour

# Each public name loads its module on first use (PEP 562), so importing one light submodule
# (the names `countlo play --help` offers) does not load the rest of the package and numpy.
WHERE = {
    "Session": "countlo.ui.session",
    "interactive": "countlo.ui.terminal",
    "run_lines": "countlo.ui.terminal",
    "run_terminal": "countlo.ui.terminal",
    "wants_colour": "countlo.ui.terminal",
}


__getattr__ = attributes(__name__, WHERE)


__all__ = ["Session", "interactive", "run_lines", "run_terminal", "wants_colour"]
