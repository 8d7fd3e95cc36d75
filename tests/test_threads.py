"""The command line runs numeric libraries on one thread unless the user set a count."""

from __future__ import annotations

import os
import subprocess
import sys

from countlo.cli.threads import VARIABLES, single_threaded


def test_unset_variables_become_one_and_set_ones_are_kept():
    env = {"OMP_NUM_THREADS": "4"}
    single_threaded(env)
    assert env["OMP_NUM_THREADS"] == "4"
    assert all(env[name] == "1" for name in VARIABLES if name != "OMP_NUM_THREADS")


def _env_after_cli_import(extra: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(extra)
    code = ("import countlo.cli, numpy, os; "
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_the_cli_entry_sets_one_thread_before_numpy_loads():
    assert _env_after_cli_import({}) == ["1", "1"]
    assert _env_after_cli_import({"OPENBLAS_NUM_THREADS": "2"}) == ["2", "1"]
