"""What `countlo solve` loads on its way to a small answer: none of the modules whose import alone
costs a noticeable share of an interpreter start (bench/bench_startup.py measures the time; this
test keeps the cause from coming back)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = {"numpy", "z3", "prompt_toolkit", "dataclasses", "inspect", "typing", "json", "shutil",
         "random", "datetime", "enum", "networkx"}
PROBE = (
    "import sys, io; before = set(sys.modules); from countlo.cli import main;"
    "sys.stdout = io.StringIO(); code = main({argv!r});"
    "sys.stdout = sys.__stdout__; print(code, ' '.join(sorted(set(sys.modules) - before)))"
)


def loaded(argv: list[str]) -> tuple[int, set[str]]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], env=env, cwd=ROOT,
                         text=True, capture_output=True, check=True).stdout.split()
    return int(out[0]), {name.split(".")[0] for name in out[1:]}


def test_a_small_solve_imports_no_heavy_module():
    code, modules = loaded(["solve", "--all-on", "--size", "6x6"])
    assert code == 0
    assert modules & HEAVY == set()


def test_networkx_is_loaded_only_to_draw_a_graph():
    """The graph layout library is imported by `solve --image` on a graph, not by `import countlo`
    nor by a graph solved without a picture."""
    petersen = str(ROOT / "examples" / "petersen.txt")
    code, modules = loaded(["solve", "--graph", petersen, "--all-on"])
    assert code == 0 and "networkx" not in modules
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", "import sys, countlo; print('networkx' in sys.modules)"],
                         env=env, cwd=ROOT, text=True, capture_output=True, check=True).stdout
    assert out.strip() == "False"


def test_top_level_help_imports_no_heavy_module():
    code, modules = loaded(["--help"])
    assert code == 0
    assert modules & HEAVY == set()


@pytest.mark.parametrize("command", ["play", "simulate", "solve", "replay", "generate", "practice", "userscript"])
def test_every_command_help_imports_no_heavy_module(command):
    """Issue 31: `play --help` and `simulate --help` imported numpy and the whole play stack (288
    modules, 8x a bare interpreter): a package's __init__ loaded everything it re-exports."""
    code, modules = loaded([command, "--help"])
    assert code == 0
    assert modules & HEAVY == set(), sorted(modules & HEAVY)


def test_a_solve_under_other_rules_loads_no_session_ui():
    """Issue 31: the rule wording pulled the whole terminal companion (ui.session, ui.terminal,
    the play stack) into every `solve` under other rules; only the words module is needed."""
    probe = PROBE.format(argv=["solve", "--all-on", "--size", "30x30", "--topology", "torus"])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, text=True, capture_output=True,
                         check=True).stdout.split()
    assert out[0] == "0"
    ui = {m for m in out[1:] if m.startswith(("countlo.ui.", "countlo.play", "prompt_toolkit"))}
    assert ui <= {"countlo.ui.rulewords"}, sorted(ui)
