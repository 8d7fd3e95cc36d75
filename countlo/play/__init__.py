"""Playing the hidden game: strategies (which cell to click), the guide (the companion's state
machine: advice, observations, typo fixes, the finishing plan), oracles and whole games."""

from countlo.play.advice import (
    Advice,
    AwaitStart,
    Contradiction,
    Done,
    Doubt,
    Finish,
    GaveUp,
    Learned,
    Phase,
    Probe,
    Stuck,
    Unclearable,
)
from countlo.play.finish import FinishStep, Plan, finish_plan
from countlo.play.game import Ending, GameResult, Outcome, Summary, play_game, summarize
from countlo.play.guide import Guide, GuideError, Progress
from countlo.play.oracle import Oracle, ScriptedOracle, SimulatedOracle
from countlo.play.program import ProgramOracle
from countlo.play.strategies.names import StrategyName, strategy_names
from countlo.play.strategies.registry import UnknownStrategyError, make_strategy, strategy_help

__all__ = [
    "Advice",
    "AwaitStart",
    "Contradiction",
    "Done",
    "Doubt",
    "Ending",
    "Finish",
    "FinishStep",
    "GameResult",
    "GaveUp",
    "Guide",
    "GuideError",
    "Learned",
    "Oracle",
    "Outcome",
    "Phase",
    "Plan",
    "Probe",
    "ProgramOracle",
    "Progress",
    "ScriptedOracle",
    "SimulatedOracle",
    "StrategyName",
    "Stuck",
    "Summary",
    "Unclearable",
    "UnknownStrategyError",
    "finish_plan",
    "make_strategy",
    "play_game",
    "strategy_help",
    "strategy_names",
    "summarize",
]
