"""The hidden board: the record of clicks and counts, three reconstruction engines behind one
result type (`linear`, `z3`, `exact`), and the diagnosis of mistyped counts (docs/MATH.md §9-§13).

The exact posterior (`countlo.hidden.posterior`, one module per method) loads numpy and is
imported by name where needed.
"""

from countlo.hidden.diagnose import Fix, diagnose
from countlo.hidden.explain import Missed, Mistake, OtherCell, StartAside, Suspect, explain
from countlo.hidden.reconstruct import determined_after, reconstruct
from countlo.hidden.record import (
    Equation,
    Record,
    Step,
    check_start,
    check_step,
    first_prefix,
    possible_after,
    record_of,
)
from countlo.hidden.result import (
    Engine,
    Reconstruction,
    Status,
    UnknownEngineError,
    engine_names,
    engine_of,
)

__all__ = [
    "Engine",
    "Equation",
    "Fix",
    "Missed",
    "Mistake",
    "OtherCell",
    "Reconstruction",
    "Record",
    "StartAside",
    "Status",
    "Step",
    "Suspect",
    "UnknownEngineError",
    "check_start",
    "check_step",
    "determined_after",
    "diagnose",
    "engine_names",
    "engine_of",
    "explain",
    "first_prefix",
    "possible_after",
    "reconstruct",
    "record_of",
]
