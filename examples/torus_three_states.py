"""Solve a 3-state Lights Out on a 5x5 torus given as a numpy array, and check the answer by
pressing the cells: `python examples/torus_three_states.py`."""

import numpy as np

import countlo

start = np.array([[0, 2, 0, 2, 0],
                  [0, 0, 0, 2, 1],
                  [1, 2, 1, 1, 0],
                  [2, 0, 2, 1, 2],
                  [1, 0, 2, 2, 1]])
answer = countlo.solve(start, topology="torus", states=3)
print(answer)
if answer.solvable:
    # press each cell as many times as the answer says: a click adds 1 mod 3 to its plus
    lights = start.copy()
    for r, row in enumerate(answer.presses.grid):
        for c, times in enumerate(row):
            for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                lights[(r + dr) % 5, (c + dc) % 5] += times
    print("after the presses:", "all dark" if not (lights % 3).any() else "not dark")
else:
    print("proof weights:", " ".join(answer.proof.cells))
