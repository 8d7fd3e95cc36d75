"""countlo: a companion for CountLightsOut (the hidden 6x6 Lights Out) and a solver of visible
Lights Out on any board under any rules.

The front door (docs/library.md): build a pattern with `lights` (text, a list of lists, a numpy
array, or node names on a graph) and ask `solve`, `fewest`, `solutions`, `quiet`, `hardest`,
`classes` or `generate`, with the rules as keywords named as on the command line
(`topology=`, `rule=`, `states=`, `graph=`, `target=`). The hidden game: `Record`,
`reconstruct`, `posterior`, `simulate` for a whole game and `replay` for a saved one.

Examples:
    >>> import countlo
    >>> print(countlo.solve("##.\\n#..\\n..."))
    3x3 board: solvable, 1 press: A1
"""

from countlo.lazy import attributes

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.board import Shape
    from countlo.graph import Graph
    from countlo.hidden.posterior.choice import posterior_of as posterior
    from countlo.hidden.rebuild import reconstruct
    from countlo.hidden.record import Record
    from countlo.library.answers import (
        Most,
        Solution,
        SolutionClass,
        classes,
        fewest,
        generate,
        hardest,
        quiet,
        solutions,
        solve,
    )
    from countlo.library.games import replay, simulate
    from countlo.library.patterns import Pattern, board_of, lights
    from countlo.play.game import GameResult
    from countlo.rules import Rule, Rules

# Each name loads its module on first use (PEP 562): `import countlo` stays as light as a bare
# interpreter and `countlo --help` pays for nothing it does not show (bench/bench_startup.py).
WHERE = {
    **dict.fromkeys(("Most", "Solution", "SolutionClass", "classes", "fewest", "generate", "hardest",
                     "quiet", "solutions", "solve"), "countlo.library.answers"),
    **dict.fromkeys(("Pattern", "board_of", "lights"), "countlo.library.patterns"),
    "simulate": "countlo.library.games",
    "replay": "countlo.library.games",
    "GameResult": "countlo.play.game",
    "Record": "countlo.hidden.record",
    "reconstruct": "countlo.hidden.rebuild",
    "Shape": "countlo.board",
    "Graph": "countlo.graph",
    "Rule": "countlo.rules",
    "Rules": "countlo.rules",
}
_load = attributes(__name__, WHERE)


def __getattr__(name: str) -> object:
    if name == "posterior":
        from countlo.hidden.posterior.choice import posterior_of

        globals()["posterior"] = posterior_of
        return posterior_of
    return _load(name)


__all__ = ["GameResult", "Graph", "Most", "Pattern", "Record", "Rule", "Rules", "Shape", "Solution",
           "SolutionClass", "__version__", "board_of", "classes", "fewest", "generate", "hardest", "lights",
           "posterior", "quiet", "reconstruct", "replay", "simulate", "solutions", "solve"]
