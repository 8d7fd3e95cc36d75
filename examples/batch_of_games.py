"""A batch of simulated 6x6 games with each strategy, as `countlo simulate` plays them: how many
were solved and the mean clicks: `python examples/batch_of_games.py [games]`."""

import statistics
import sys

import countlo

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
for strategy in ("adaptive", "sequential"):
    results = [countlo.simulate("6x6", seed=s, strategy=strategy) for s in range(1, games + 1)]
    solved = sum(r.solved for r in results)
    mean = statistics.mean(r.clicks for r in results)
    print(f"{strategy:>10}: {solved}/{games} solved, {mean:.2f} clicks on average")
