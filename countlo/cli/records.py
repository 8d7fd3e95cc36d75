"""A simulated game as the plain record `simulate` prints and writes (`--json`, `--records`), and
the same record as the only thing countlo takes back from a Dask cluster.

`game_record` builds the record from a game played here or in a `--jobs` worker. A game played on
the cluster is turned into that record by the worker (`to_plain`: JSON text, which Dask carries
without pickle) and checked here field by field (`from_plain`) before it is believed: a worker
that joined the scheduler may be anyone's, so what it sends is data of a known shape, never code.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, NamedTuple

from countlo.errors import CountloError
from countlo.i18n import _

if TYPE_CHECKING:
    from countlo.play.game import Outcome

LONGEST_PLAIN = 16 << 20  # characters of one game's result from the cluster (a 16x16 game needs ~50 kB)
LONGEST_REASON = 4096
LARGEST_NUMBER = 10**9


def rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def game_record(shape: Any, seed: int, r: Any, hidden: int | None) -> dict[str, Any]:
    """The JSON record of one game (GameResult `r`; the hidden start, None from a game program)."""
    from countlo.board import Shape
    from countlo.formats.jsonshape import bit_grid, cell_pair
    from countlo.ui.wording import ending_text

    grid = isinstance(shape, Shape)  # else a press board: lights by name, the start a 0/1 per light

    def where(cell: int) -> Any:
        return cell_pair(shape, cell) if grid else shape.name(cell)

    def start(bits: int | None) -> Any:
        if grid or bits is None:
            return bit_grid(shape, bits)
        return [bits >> i & 1 for i in range(shape.cells)]

    rec = r.record
    out: dict[str, Any] = {
        "seed": seed, "outcome": r.outcome.value, "solved": r.solved, "probes": r.probes,
        "clicks": r.clicks, "reason": ending_text(shape, r.ending),
        "start_count": rec.start if rec else None,
        # each step is [[row, column], count]: the cell clicked and the count it showed
        "steps": [[where(s.cell), s.count] for s in rec.steps] if rec else [],
        # a refused last count is an observation too: kept in steps, and said to be the one no board allows
        "refused_last": r.refused is not None,
        "decision_ms_mean": rounded(1000 * sum(r.decision_times) / len(r.decision_times)) if r.decision_times else None,
        "decision_ms_max": rounded(1000 * max(r.decision_times)) if r.decision_times else None,
    }
    if r.refused is not None:
        out["steps"].append([where(r.refused[0]), r.refused[1]])
    source = "simulated"
    if hidden is None:  # a game program does not reveal its board: the counts may determine it
        hidden, source = reconstructed(rec)
    out["start"] = start(hidden)  # the hidden start, rows of 0/1 as in every --json
    out["start_source"] = source
    return out


def reconstructed(record: Any) -> tuple[int | None, str]:
    """The start a program's counts determine, or None with why (the program never reveals it)."""
    from countlo.hidden.rebuild import reconstruct
    from countlo.hidden.result import Status

    unknown = _("not revealed by the game program, and its counts do not determine it")
    if record is None:
        return None, unknown
    r = reconstruct(record, "linear", limit=2)
    if r.status is Status.DETERMINED:
        return r.board, _("reconstructed from the game program's counts")
    return None, unknown


class Played(NamedTuple):
    """What the summary reads of a game played on the cluster (as of a GameResult)."""

    outcome: Outcome
    probes: int
    clicks: int
    decision_times: tuple[float, ...]

    @property
    def solved(self) -> bool:
        return bool(self.outcome.value == "solved")

    @property
    def correct(self) -> bool:
        return bool(self.outcome.value in ("solved", "unsolvable"))


def to_plain(shape: Any, seed: int, r: Any, hidden: int | None) -> str:
    """One game as JSON text: its record and its decision times (what the summary needs)."""
    return json.dumps({"record": game_record(shape, seed, r, hidden), "decision_times": list(r.decision_times)})


class BadResultError(CountloError):
    """A result from the cluster that is not a game record of the asked seed and board."""


_KEYS = {"seed", "outcome", "solved", "probes", "clicks", "reason", "start_count", "steps", "refused_last",
         "decision_ms_mean", "decision_ms_max", "start", "start_source"}


def from_plain(text: object, shape: Any, seed: int) -> tuple[Played, dict[str, Any]]:
    """The game a worker sent for `seed`, checked field by field; BadResultError (one line) if
    anything is not what countlo itself would have written."""
    from countlo.play.game import Outcome

    def bad(what: str) -> BadResultError:
        return BadResultError(_("a Dask worker sent a malformed result for seed {seed} ({what}); only "
                                "plain game records are accepted from the cluster").format(seed=seed, what=what))

    def number(x: object, low: int = 0, high: int = LARGEST_NUMBER) -> bool:
        return type(x) is int and low <= x <= high

    def real(x: object) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0

    if not isinstance(text, str) or len(text) > LONGEST_PLAIN:
        raise bad(_("not JSON text of a bounded length"))
    try:
        data = json.loads(text)
    except ValueError:
        raise bad(_("not JSON")) from None
    if not isinstance(data, dict) or set(data) != {"record", "decision_times"}:
        raise bad(_("not a record and its decision times"))
    rec, times = data["record"], data["decision_times"]
    if not isinstance(times, list) or not all(real(t) for t in times):
        raise bad("decision_times")
    if not isinstance(rec, dict) or set(rec) != _KEYS:
        raise bad(_("not the keys of a game record"))
    outcomes = {o.value: o for o in Outcome}
    checks = {
        "seed": rec["seed"] == seed and type(rec["seed"]) is int,
        "outcome": isinstance(rec["outcome"], str) and rec["outcome"] in outcomes,
        "solved": type(rec["solved"]) is bool and rec["solved"] == (rec["outcome"] == "solved"),
        "probes": number(rec["probes"]), "clicks": number(rec["clicks"]),
        "reason": isinstance(rec["reason"], str) and len(rec["reason"]) <= LONGEST_REASON,
        "start_count": rec["start_count"] is None or number(rec["start_count"], 0, shape.cells),
        "steps": isinstance(rec["steps"], list) and len(rec["steps"]) <= LARGEST_NUMBER
        and all(_step(s, shape) for s in rec["steps"]),
        "refused_last": type(rec["refused_last"]) is bool,
        "decision_ms_mean": rec["decision_ms_mean"] is None or real(rec["decision_ms_mean"]),
        "decision_ms_max": rec["decision_ms_max"] is None or real(rec["decision_ms_max"]),
        "start": rec["start"] is None or (
            isinstance(rec["start"], list) and len(rec["start"]) == shape.rows
            and all(isinstance(row, list) and len(row) == shape.cols
                    and all(type(v) is int and v in (0, 1) for v in row) for row in rec["start"])),
        "start_source": isinstance(rec["start_source"], str) and len(rec["start_source"]) <= LONGEST_REASON,
    }
    wrong = [key for key, ok in checks.items() if not ok]
    if wrong:
        raise bad(", ".join(wrong))
    return Played(outcomes[rec["outcome"]], rec["probes"], rec["clicks"], tuple(times)), rec


def _step(step: object, shape: Any) -> bool:
    """A step as `[[3, 4], 17]`: a cell of the board as 1-based [row, column] and a count it can show."""
    if not (isinstance(step, list) and len(step) == 2 and isinstance(step[0], list) and len(step[0]) == 2
            and type(step[1]) is int and 0 <= step[1] <= shape.cells):
        return False
    row, col = step[0]
    return type(row) is int and type(col) is int and 1 <= row <= shape.rows and 1 <= col <= shape.cols
