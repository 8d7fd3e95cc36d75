"""The hidden board: the record of clicks and counts, three reconstruction engines behind one
result type (`linear`, `z3`, `exact`), and the diagnosis of mistyped counts (docs/MATH.md §9-§13).

The exact posterior (`countlo.hidden.posterior`, one module per method) loads numpy and is
imported by name where needed.
"""

from countlo.lazy import attributes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.hidden.diagnose import Fix, diagnose
    from countlo.hidden.explain import Missed, Mistake, OtherCell, StartAside, Suspect, explain
    from countlo.hidden.rebuild import determined_after, reconstruct
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

# Each public name loads its module on first use (PEP 562), so importing one light submodule
# (the names `countlo play --help` offers) does not load the rest of the package and numpy.
WHERE = {
    "Engine": "countlo.hidden.result",
    "Equation": "countlo.hidden.record",
    "Fix": "countlo.hidden.diagnose",
    "Missed": "countlo.hidden.explain",
    "Mistake": "countlo.hidden.explain",
    "OtherCell": "countlo.hidden.explain",
    "StartAside": "countlo.hidden.explain",
    "Suspect": "countlo.hidden.explain",
    "explain": "countlo.hidden.explain",
    "Reconstruction": "countlo.hidden.result",
    "Record": "countlo.hidden.record",
    "Status": "countlo.hidden.result",
    "Step": "countlo.hidden.record",
    "UnknownEngineError": "countlo.hidden.result",
    "check_start": "countlo.hidden.record",
    "check_step": "countlo.hidden.record",
    "determined_after": "countlo.hidden.rebuild",
    "diagnose": "countlo.hidden.diagnose",
    "engine_names": "countlo.hidden.result",
    "engine_of": "countlo.hidden.result",
    "first_prefix": "countlo.hidden.record",
    "possible_after": "countlo.hidden.record",
    "reconstruct": "countlo.hidden.rebuild",
    "record_of": "countlo.hidden.record",
}


__getattr__ = attributes(__name__, WHERE)


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
