"""Every input is read with a size limit, refused in one line above it: boards, targets, graphs,
rule files and standard input (64 MB), transcripts and hand-written records (16 MB), a piped
line of moves (4096 characters); and --jobs is capped by the cores (issue 28, item 8)."""

from __future__ import annotations

import os

import pytest
from conftest import ROOT

from countlo.formats import text

ZERO = "/dev/zero"


def one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


@pytest.fixture
def small(monkeypatch):
    """Limits of 1000 bytes, so a test needs no 64 MB file."""
    monkeypatch.setattr(text, "BOARD_BYTES", 1000)
    monkeypatch.setattr(text, "TRANSCRIPT_BYTES", 1000)


@pytest.mark.parametrize(("argv", "stdin"), [
    (["solve", "{big}"], None),
    (["solve", "-"], "." * 1001),
    (["solve", "--size", "3x3", "--lit", "1", "--to", "{big}"], None),
    (["solve", "--graph", "{big}", "--all-on"], None),
    (["solve", "--rule", "{big}", "--size", "3x3", "--lit", "1"], None),
    (["solve", "--states", "3", "{big}"], None),
    (["replay", "{big}"], None),
    (["replay", "-"], "start 3\n" * 200),
    (["play", "--resume", "{big}"], None),
    (["practice", "{big}"], None),
    (["practice", "--states", "3", "{big}"], None),
    (["generate", "--size", "3x3", "--to", "{big}"], None),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_every_input_above_its_limit_is_one_line(run_cli, tmp_path, small, argv, stdin):
    big = tmp_path / "big.txt"
    big.write_text("# countlo transcript 1\n# size: 3x3\n\n" + "#.#\n" * 300)
    r = run_cli([a.replace("{big}", str(big)) for a in argv], input=stdin)
    assert "holds more than 0 MB, the most countlo reads from one input" in one_line(r)


@pytest.mark.skipif(not os.path.exists(ZERO), reason="no /dev/zero here")
@pytest.mark.parametrize("argv", [["solve", ZERO], ["replay", ZERO], ["solve", "--graph", ZERO, "--all-on"]])
def test_an_endless_file_is_refused_at_the_limit(run_cli, argv):
    assert "/dev/zero holds more than" in one_line(run_cli(argv))


def test_files_within_the_limits_still_read(run_cli):
    r = run_cli(["replay", str(ROOT / "transcripts" / "6x6-adaptive-seed1.txt")])
    assert r.returncode == 0


def test_a_piped_line_too_long_to_be_a_move_is_refused_and_not_echoed_whole(run_cli):
    r = run_cli(["practice", "--seed", "1", "--size", "3x3"], input="x" * 100_000 + "\nhint\n")
    assert "! a line of more than 4096 characters is not a move" in r.stdout
    assert "x" * 200 not in r.stdout and "Hint: click" in r.stdout


def test_jobs_is_capped_by_the_cores(run_cli):
    r = run_cli(["simulate", "--games", "2", "--jobs", "1000000"])
    assert "worker processes here (4 per core)" in one_line(r)
