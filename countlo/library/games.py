"""The hidden game for Python: a simulated game played by the guide, start to finish, and a
saved transcript replayed.

Examples:
    >>> import countlo
    >>> game = countlo.simulate("6x6", seed=1)
    >>> game.solved, game.clicks == len(game.record.steps)
    (True, True)
"""

from __future__ import annotations

from countlo.board import Shape
from countlo.play.game import GameResult, play_game
from countlo.play.oracle import SimulatedOracle
from countlo.play.review import Replay


def simulate(size: str = "6x6", *, seed: int = 0, strategy: str = "adaptive", board: int | None = None,
             density: float = 0.5) -> GameResult:
    """One game against a seeded random hidden board (or the bitset `board`), played by the
    guide with `strategy` as `countlo play --sim` plays it; the result holds the record."""
    shape = Shape.parse(size)
    return play_game(SimulatedOracle(shape, seed, density, board), strategy, seed=seed)


def replay(transcript: str, *, engine: str = "auto") -> Replay:
    """A saved transcript (a file's path, or its text) replayed as `countlo replay` does: the
    hidden start when the counts determine it, the lights now and the plan to clear them.

    Examples:
        >>> import countlo
        >>> r = countlo.replay("transcripts/6x6-adaptive-seed1.txt")
        >>> r.status, r.possible, len(r.finish)
        ('determined', 1, 0)
    """
    from countlo.errors import TranscriptError
    from countlo.formats import hand
    from countlo.formats.text import read_text
    from countlo.i18n import _
    from countlo.play.review import replay as review

    is_text = "\n" in transcript
    source = "<text>" if is_text else transcript
    t = hand.parse(transcript if is_text else read_text(transcript), source)
    if t.record is None:
        raise TranscriptError([(1, _("no 'start COUNT' line: nothing to replay"))], source)
    return review(t.record, t.count_lines, engine)
