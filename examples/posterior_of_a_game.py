"""Play a simulated 6x6 game, then watch the exact posterior narrow step by step: how many hidden
starts were still possible after each click, and the light most likely on after the third click:
`python examples/posterior_of_a_game.py [seed]`."""

import sys

import countlo

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
game = countlo.simulate("6x6", seed=seed)
record = game.record
shape = record.shape
print(f"seed {seed}: {game.outcome.value} in {game.clicks} clicks, start count {record.start}")
for k in range(1, min(len(record.steps), 8) + 1):
    post = countlo.posterior(record.prefix(k))
    step = record.steps[k - 1]
    print(f"after {shape.name(step.cell)} -> {step.count}: {post.count} starts possible")
post = countlo.posterior(record.prefix(3))
marginals = post.start_marginals()
likely = max(range(shape.cells), key=lambda j: marginals[j])
print(f"after 3 clicks the light most likely on at the start: {shape.name(likely)} "
      f"({marginals[likely]:.0%})")
