"""Every script in examples/ runs from a fresh interpreter and says what it should."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXPECT = {
    "torus_three_states.py": [r"solvable, \d+ presses", r"after the presses: all dark"],
    "fewest_with_bound.py": [r"^20x20 all on: 224 presses, proven fewest$"],
    "posterior_of_a_game.py": [r"seed 1: solved in \d+ clicks", r"after [A-F][1-6] -> \d+: \d+ starts possible",
                               r"most likely on at the start: [A-F][1-6] \(\d+%\)"],
    "batch_of_games.py": [r"adaptive: 3/3 solved", r"sequential: 3/3 solved"],
}
ARGS = {"batch_of_games.py": ["3"]}


def test_every_script_is_checked():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_the_script_runs_and_says_what_it_should(name):
    res = subprocess.run([sys.executable, str(EXAMPLES / name), *ARGS.get(name, [])],
                         capture_output=True, text=True, timeout=300, cwd=EXAMPLES.parent)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    for pattern in EXPECT[name]:
        assert re.search(pattern, res.stdout, re.M), (pattern, res.stdout)
