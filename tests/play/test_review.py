"""What replay finds in a record (countlo.play.review)."""

from __future__ import annotations

import random

from countlo.board import Shape
from countlo.hidden.posterior.frontier import FrontierPosterior
from countlo.hidden.record import record_of
from countlo.play.review import step_notes


def test_step_notes_on_a_big_board_count_each_prefix_as_a_posterior_built_from_it():
    """The notes update one posterior click by click (docs/MATH.md §29): the counts are those of
    each prefix's own posterior, a repeated click and its undoing included."""
    shape = Shape(10, 10)
    rng = random.Random(4)
    clicks = [rng.randrange(shape.cells) for _ in range(14)]
    clicks[5:5] = [clicks[4]]  # undo the click before
    record = record_of(shape, rng.getrandbits(shape.cells), clicks)
    notes = step_notes(record)
    assert len(notes) == len(clicks) + 1
    for n, note in enumerate(notes):
        p = FrontierPosterior(record.prefix(n))
        known = sum(m in (0.0, 1.0) for m in p.start_marginals())
        assert (note.possible, note.possible_exact, note.known) == (p.count, p.count_exact, known)
