"""One thread for the numeric libraries in countlo's own processes, unless the user says otherwise.

countlo's numpy work is many small matrix products; a second BLAS thread only adds hand-over
cost (measured: about 45 % less CPU for whole 6x6 games with one thread, and the worst decision
from ~330 ms to ~80 ms). The variables must be set before numpy is first imported, so the command
line sets them on entry; a value the user already exported wins.
"""

from __future__ import annotations

import os

VARIABLES = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def single_threaded(environ: dict[str, str] | os._Environ[str] | None = None) -> None:
    """Set every thread-count variable that is not set yet to 1."""
    env = os.environ if environ is None else environ
    for name in VARIABLES:
        env.setdefault(name, "1")
