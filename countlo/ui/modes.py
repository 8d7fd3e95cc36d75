"""The two ways a guided session is played, as small policy objects: beside the real game (the
player clicks and types each count) or against a simulated board (countlo clicks and reads the
count itself)."""

from __future__ import annotations

from countlo.play.oracle import SimulatedOracle
from countlo.ui.wording import HELP, SIM_HELP


class RealGame:
    """The player clicks in the real game and types the count it shows."""

    simulated = False
    help = HELP
    hidden: int | None = None

    def count(self, cell: int, typed: int | None) -> int:
        """The count after clicking `cell`: the one the player typed."""
        if typed is None:
            raise ValueError("a real game's count must be typed")
        return typed

    def take_back(self, cell: int) -> None:
        """A refused or undone count: the player's click stays in the real game (the count is
        what is taken back), so there is nothing to click again."""


class SimulatedGame:
    """countlo clicks a simulated board and reads its count; the board is shown at the end."""

    simulated = True
    help = SIM_HELP

    def __init__(self, oracle: SimulatedOracle):
        self.oracle = oracle

    @property
    def hidden(self) -> int | None:
        return self.oracle.board

    def start(self) -> int:
        return self.oracle.start()

    def count(self, cell: int, typed: int | None) -> int:
        return self.oracle.click(cell)

    def take_back(self, cell: int) -> None:
        """Click `cell` again, so the simulated board returns to where it was."""
        self.oracle.click(cell)


Mode = RealGame | SimulatedGame
