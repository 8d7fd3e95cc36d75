"""`countlo shell`: completion scripts that load in the shell and complete from countlo's own
parsers, and the manual page of every command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from countlo.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[2]


def completions(line: str, tmp_path: Path) -> list[str]:
    """What countlo offers a shell for the words of `line` (argcomplete's protocol, answered into
    a file instead of the shell's descriptor)."""
    out = tmp_path / "offered.txt"
    env = dict(os.environ, _ARGCOMPLETE="1", COMP_LINE=line, COMP_POINT=str(len(line)),
               _ARGCOMPLETE_STDOUT_FILENAME=str(out),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-m", "countlo"], env=env, check=True, cwd=tmp_path)
    return [w.strip() for w in out.read_text().split("\v")]


def test_commands_and_options_are_completed(tmp_path):
    assert completions("countlo sh", tmp_path) == ["shell"]
    assert completions("countlo solve --to", tmp_path) == ["--to", "--topology"]
    assert set(completions("countlo simulate --strategy o", tmp_path)) == {"optimal"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_the_bash_script_loads_and_registers_countlo(run_cli):
    script = run_cli(["shell", "bash"]).stdout
    done = subprocess.run(["bash", "-c", 'eval "$SCRIPT"; complete -p countlo'], env=dict(os.environ, SCRIPT=script),
                          capture_output=True, text=True, check=True)
    assert "_python_argcomplete countlo" in done.stdout


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_name_countlo(run_cli, shell):
    script = run_cli(["shell", shell]).stdout
    assert "countlo" in script and "_ARGCOMPLETE" in script


def test_the_manual_page_covers_every_command(run_cli):
    page = run_cli(["shell", "man"]).stdout
    assert page.startswith(".TH COUNTLO \"1\"")
    for command in COMMANDS:
        assert f"countlo {command}" in page
    assert "\\-\\-topology" in page  # the options as the parsers hold them


def test_top_level_help_says_how_to_get_completion(run_cli):
    assert "countlo shell bash|zsh|fish|man" in run_cli(["--help"]).stdout


def test_a_shell_that_is_not_offered_is_refused_in_one_line(run_cli):
    done = run_cli(["shell", "tcsh"])
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
