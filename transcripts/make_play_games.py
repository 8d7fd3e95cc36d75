"""Play one simulated 6x6 game (seed 1) per strategy through `countlo play --sim` in a pty
(pexpect), saving transcripts/6x6-STRATEGY-seed1.txt; `manual` clicks cells in reading order."""

import os
import sys

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, PYTHONPATH=ROOT, TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")
READING_ORDER = [f"{c}{r}" for r in range(1, 7) for c in "ABCDEF"]

for strategy in ["adaptive", "restore", "sequential", "fixed", "manual"]:
    path = os.path.join(ROOT, "transcripts", f"6x6-{strategy}-seed1.txt")
    if os.path.exists(path):
        os.remove(path)
    args = ["-m", "countlo", "play", "--sim", "--seed", "1", "--strategy", strategy, "--transcript", path]
    child = pexpect.spawn(sys.executable, args, env=ENV, cwd=ROOT, dimensions=(24, 80),
                          encoding="utf-8", timeout=60)
    typed = 0
    while (i := child.expect(["Enter clicks", "Type the cell to click", "Solved"])) != 2:
        if i == 0:
            child.send("\r")  # make the suggested click
        else:
            child.send(READING_ORDER[typed] + "\r")  # manual: the player picks
            typed += 1
    child.expect(pexpect.EOF)
    with open(path) as f:
        print(strategy, f.read().splitlines()[-1])
