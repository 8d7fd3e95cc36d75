"""The terminal companion of `countlo play`: the session (text in, fragments out), what it shows,
the words it uses, and the prompt_toolkit or plain-line front ends."""

from countlo.ui.session import Session
from countlo.ui.terminal import interactive, run_lines, run_terminal, wants_colour

__all__ = ["Session", "interactive", "run_lines", "run_terminal", "wants_colour"]
