"""Playing the hidden game: strategies (which cell to click), the guide (the companion's state
machine: advice, observations, typo fixes, the finishing plan), oracles and whole games."""

from countlo.lazy import attributes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
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

# Each public name loads its module on first use (PEP 562), so importing one light submodule
# (the names `countlo play --help` offers) does not load the rest of the package and numpy.
WHERE = {
    "Advice": "countlo.play.advice",
    "AwaitStart": "countlo.play.advice",
    "Contradiction": "countlo.play.advice",
    "Done": "countlo.play.advice",
    "Doubt": "countlo.play.advice",
    "Ending": "countlo.play.game",
    "Finish": "countlo.play.advice",
    "FinishStep": "countlo.play.finish",
    "GameResult": "countlo.play.game",
    "GaveUp": "countlo.play.advice",
    "Guide": "countlo.play.guide",
    "GuideError": "countlo.play.guide",
    "Learned": "countlo.play.advice",
    "Oracle": "countlo.play.oracle",
    "Outcome": "countlo.play.game",
    "Phase": "countlo.play.advice",
    "Plan": "countlo.play.finish",
    "Probe": "countlo.play.advice",
    "ProgramOracle": "countlo.play.program",
    "Progress": "countlo.play.guide",
    "ScriptedOracle": "countlo.play.oracle",
    "SimulatedOracle": "countlo.play.oracle",
    "StrategyName": "countlo.play.strategies.names",
    "Stuck": "countlo.play.advice",
    "Summary": "countlo.play.game",
    "Unclearable": "countlo.play.advice",
    "UnknownStrategyError": "countlo.play.strategies.registry",
    "finish_plan": "countlo.play.finish",
    "make_strategy": "countlo.play.strategies.registry",
    "play_game": "countlo.play.game",
    "strategy_help": "countlo.play.strategies.registry",
    "strategy_names": "countlo.play.strategies.names",
    "summarize": "countlo.play.game",
}


__getattr__ = attributes(__name__, WHERE)


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
