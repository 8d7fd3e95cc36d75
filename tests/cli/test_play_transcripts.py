"""Which `countlo play` sessions leave a transcript file (issue 26, item 9): a session left
before its first click keeps none and says so (no `--resume` hint to a file that is gone), and
a simulated game keeps one only when --transcript asks for it."""

from __future__ import annotations

import pytest


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "countlo"


def files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("typed", ["quit\n", "19\nquit\n", ""])
def test_a_session_left_before_its_first_click_keeps_no_file_and_offers_no_resume(run_cli, data_home, typed):
    res = run_cli(["play", "--plain"], input=typed)
    assert res.returncode == 0, res.stderr
    assert files(data_home) == []
    assert "No transcript kept: the game was left before its first click." in res.stdout
    assert "--resume" not in res.stdout


def test_a_session_with_a_click_keeps_its_file_and_says_how_to_resume(run_cli, data_home):
    res = run_cli(["play", "--plain"], input="19\nA1 18\nquit\n")
    (name,) = files(data_home)
    assert f"countlo play --resume {data_home / name}" in res.stdout and "No transcript kept" not in res.stdout


def test_a_simulated_game_writes_a_transcript_only_when_asked(run_cli, data_home, tmp_path):
    res = run_cli(["play", "--sim", "--seed", "1", "--plain", "--size", "3x3"], input="\n" * 40)
    assert res.returncode == 0 and "Solved" in res.stdout
    assert files(data_home) == [] and "Transcript" not in res.stdout and "--resume" not in res.stdout
    res = run_cli(["play", "--sim", "--seed", "1", "--plain", "--size", "3x3"], input="\n\nquit\n")
    assert files(data_home) == [] and "--resume" not in res.stdout
    asked = tmp_path / "game.txt"
    res = run_cli(["play", "--sim", "--seed", "1", "--plain", "--size", "3x3", "--transcript", str(asked)],
                  input="\n" * 40)
    assert asked.exists() and f"Transcript: {asked}" in res.stdout
    assert asked.read_text(encoding="utf-8").rstrip().split("\n")[-1].startswith("# solved")
