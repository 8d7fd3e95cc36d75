"""The self-overwriting status line of a long fewest-press search (`solve --min`, classic and
other rules): progress, best so far, time spent and left, on stderr when it is a terminal."""

from __future__ import annotations

import sys

from countlo.i18n import _
from countlo.printable import unescaped

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.visible.algebra.coset_walsh import Progress, Status


def status_line(many: str) -> Progress | None:
    """A progress callback for a search over `many` solutions ('2^30', '531441'), or None when
    stderr is not a terminal (a pipe or file gets no carriage returns)."""
    if not sys.stderr.isatty():
        return None

    def show(st: Status) -> None:
        frac = st.done / st.total
        left = st.elapsed * (1 - frac) / frac if frac else 0.0
        unescaped(sys.stderr).write("\r\x1b[K" + _(
            "searching {many} solutions: {done}% done, best {best} presses, {spent} CPU s, about "
            "{left} CPU s left (Ctrl-C stops with the best so far)").format(
                many=many, done=f"{100 * frac:.1f}", best=st.best, spent=f"{st.elapsed:.0f}",
                left=f"{left:.0f}"))
        unescaped(sys.stderr).flush()

    return show


def clear_status() -> None:
    """Wipe the status line (nothing to wipe when stderr is not a terminal)."""
    if sys.stderr.isatty():
        unescaped(sys.stderr).write("\r\x1b[K")  # countlo's own control, not text from outside
        unescaped(sys.stderr).flush()
