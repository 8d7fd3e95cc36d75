"""Issue 11, one test per defect: nothing lost, no traceback, bounded on every input.

Each test is named after what it protects. Commands run in-process through `main(argv)`.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path

import pytest

from countlo.board import Shape
from countlo.cli import main
from countlo.formats.transcript import Header, Writer, read

PY = sys.executable


def run(argv, capsys, monkeypatch, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, expected: int = 2) -> str:
    assert code == expected, err
    assert "Traceback" not in err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    return lines[0]


# --- 1: data loss --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["my notes\nline two", "17\n1 2 3\n4 5 6\n7 8 9"])
def test_resume_never_changes_a_file_that_is_not_a_transcript(tmp_path, capsys, monkeypatch,
                                                               text):
    path = tmp_path / "notes.txt"
    path.write_text(text)
    code, _, err = run(["play", "--resume", str(path), "--sim"], capsys, monkeypatch)
    assert "not a countlo transcript" in one_line_error(code, err)
    assert path.read_text() == text


def test_resume_of_a_broken_transcript_without_final_newline_changes_nothing(tmp_path, capsys,
                                                                            monkeypatch):
    path = tmp_path / "t.txt"
    text = "# countlo transcript 1\n# size: 6x6\n\nstart 99\nA1 3"
    path.write_text(text)
    code, _, err = run(["play", "--resume", str(path), "--sim"], capsys, monkeypatch)
    assert code in (1, 2) and "Traceback" not in err  # 99 of 36 lit is a contradiction: 1
    assert path.read_text() == text


def test_resume_still_sets_aside_a_torn_last_line_of_a_real_transcript(tmp_path):
    path = tmp_path / "t.txt"
    with Writer.create(str(path), Header(Shape(2, 2))) as w:
        w.start(1)
    with open(path, "a") as f:
        f.write("A1 ")
    w, t = Writer.resume(str(path))
    w.close()
    assert t.notes == ["resumed: set aside an unfinished last line 'A1'"]
    assert read(path.read_text()).record.counts == [1]


# --- 2: recursion ----------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["32x32", "1x1000", "10x100"])
def test_replay_of_boards_of_a_thousand_cells_does_not_recurse_per_cell(tmp_path, capsys,
                                                                         monkeypatch, size):
    path = tmp_path / "t.txt"
    path.write_text(f"# countlo transcript 1\n# size: {size}\n\nstart 5\nA1 4\n")
    monkeypatch.setattr(sys, "getrecursionlimit", lambda: 1000)
    code, out, err = run(["replay", str(path), "--engine", "linear"], capsys, monkeypatch)
    assert code in (0, 1) and err == "", err
    assert "board" in out


# --- 5: numbers --------------------------------------------------------------------------------

LONG = "1" + "0" * 5000


@pytest.mark.parametrize("argv", [
    ["solve", "--lit", "²", "--size", "6x6"],
    ["solve", "--lit", "١٨", "--size", "6x6"],
    ["solve", "--lit", LONG, "--size", "6x6"],
    ["solve", "--all-on", "--size", f"{LONG}x5"],
    ["solve", "--all-on", "--size", "6x6", "--all", "--limit", "²"],
    ["play", "--sim", "--seed", "١٨"],
    ["simulate", "--seed", "1_7", "--games", "1"],
    ["simulate", "--games", LONG],
])
def test_unicode_digits_and_over_long_numbers_are_bad_input_not_tracebacks(
        capsys, monkeypatch, argv):
    code, _, err = run(argv, capsys, monkeypatch)
    line = one_line_error(code, err)
    assert len(line) < 300
    assert "_positive" not in line


@pytest.mark.parametrize("line", ["fix ² 3", "fix 3 ١٨", LONG, "C4 " + LONG, "4 3 " + LONG])
def test_unicode_digits_and_over_long_numbers_at_the_prompt_are_refused(line):
    from countlo.ui.entry import EntryError, parse_entry

    with pytest.raises(EntryError) as e:
        parse_entry(line, Shape(6, 6))
    assert len(str(e.value)) < 300


# --- 6: Unicode spaces ---------------------------------------------------------------------------

@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000", "\u202f"])
def test_a_unicode_space_inside_a_grid_row_separates_cells(capsys, monkeypatch, space):
    code, out, err = run(["solve", "-"], capsys, monkeypatch,
                         stdin=f"1{space}0 1\n0 1 0\n1 0 1\n")
    assert code == 0 and err == ""
    assert out.startswith("3x3 board: solvable")


# --- 7: bounded memory and time ------------------------------------------------------------------

def test_solve_json_above_64x64_summarises_instead_of_listing_every_press(capsys, monkeypatch):
    code, out, err = run(["solve", "--all-on", "--size", "100x100", "--json"], capsys, monkeypatch)
    assert code == 0 and err == ""
    got = json.loads(out)
    assert got["presses"] is None and got["count"] > 0 and got["solvable"]


@pytest.mark.parametrize("argv, limit", [
    (["solve", "--all-on", "--size", "65535x65535", "--min"], "4096x4096"),
    (["solve", "--all-on", "--size", "65535x65535", "--all"], "4096x4096"),
    (["solve", "--all-on", "--size", "65535x65535", "--full"], "2048x2048"),
    (["solve", "--all-on", "--size", "300x300", "--classes"], "65536 cells"),
    (["play", "--sim", "--size", "3x1000"], "1000 cells"),
    (["simulate", "--size", "65535x65535"], "1000 cells"),
])
def test_requests_too_large_for_memory_are_refused_up_front_saying_the_limit(
        capsys, monkeypatch, argv, limit, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _, err = run(argv, capsys, monkeypatch)
    assert limit in one_line_error(code, err)


@pytest.mark.parametrize("engine, size", [("z3", "65535x65535"), ("exact", "65535x65535"),
                                          ("linear", "65535x65535"), ("auto", "65535x65535"),
                                          ("exact", "20x20")])
def test_replay_refuses_boards_too_large_for_its_engine(tmp_path, capsys, monkeypatch, engine,
                                                        size):
    path = tmp_path / "t.txt"
    path.write_text(f"# countlo transcript 1\n# size: {size}\n\nstart 5\nA1 4\n")
    code, _, err = run(["replay", str(path), "--engine", engine], capsys, monkeypatch)
    assert "at most" in one_line_error(code, err)


def test_a_long_contradictory_transcript_replays_without_the_quadratic_typo_search(
        tmp_path, capsys, monkeypatch):
    path = tmp_path / "t.txt"
    path.write_text("# countlo transcript 1\n# size: 6x6\n\nstart 18\n" + "A1 18\n" * 20000)
    code, out, err = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 1 and err == ""
    assert "No single corrected count makes them fit" in out


def test_a_long_transcript_with_one_hidden_typo_says_the_typo_search_was_not_run(
        tmp_path, capsys, monkeypatch):
    import random

    from countlo.hidden.diagnose import MAX_COUNTS
    from countlo.hidden.record import record_of

    shape, rng = Shape(4, 4), random.Random(5)
    rec = record_of(shape, rng.getrandbits(16), [rng.randrange(16) for _ in range(MAX_COUNTS)])
    counts = [s.count for s in rec.steps]
    i = next(i for i in range(len(counts) // 2, len(counts)) if counts[i] + 2 <= 16)
    counts[i] += 2  # same parity: every single change is still possible, the whole is not
    body = "".join(f"{shape.name(s.cell)} {c}\n" for s, c in zip(rec.steps, counts))
    path = tmp_path / "t.txt"
    path.write_text(f"# countlo transcript 1\n# size: 4x4\n\nstart {rec.start}\n{body}")
    _code, out, _err = run(["replay", str(path), "--json"], capsys, monkeypatch)
    got = json.loads(out)
    if got["status"] == "contradictory":
        assert got["typo_searched"] is False and got["typo"] == []
        _code, out, _err = run(["replay", str(path)], capsys, monkeypatch)
        assert f"limited to records of {MAX_COUNTS} counts" in out


# --- 9: game programs ------------------------------------------------------------------------------

PROGRAM = textwrap.dedent("""
    import sys
    mode = sys.argv[1]
    b = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
    def count():
        return sum(map(sum, b))
    def say(x):
        if mode == "bytes":
            sys.stdout.buffer.write(b"\\xff\\xfe1\\n"); sys.stdout.flush(); return
        text = {"arabic": "\u0661\u0668", "underscore": "1_7"}.get(mode, str(x))
        print(text, flush=True)
        if mode == "twice":
            print(text, flush=True)
    say(count())
    for line in sys.stdin:
        r, c = (int(v) - 1 for v in line.split())
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                b[r + dr][c + dc] ^= 1
        say(count())
""")


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "game.py"
    path.write_text(PROGRAM)
    return lambda mode: f"{PY} {path} {mode}"


@pytest.mark.parametrize("command", ["'unbalanced", "", "   "])
def test_a_game_program_command_that_cannot_run_is_one_line_of_bad_input(capsys, monkeypatch,
                                                                        command):
    code, _, err = run(["simulate", "--games", "1", "--size", "3x3", "--oracle-cmd", command],
                       capsys, monkeypatch)
    error = one_line_error(code, err)
    assert "game program command" in error or (command == "" and "--oracle-cmd was given an empty value" in error)


@pytest.mark.parametrize("value", ["inf", "1e300", "nan", "-1", "0", "1_0", "٥"])
def test_a_timeout_must_be_finite_positive_seconds(capsys, monkeypatch, value):
    code, _, err = run(["simulate", "--games", "1", "--timeout", value], capsys, monkeypatch)
    assert "--timeout" in one_line_error(code, err)


@pytest.mark.parametrize("mode, says", [
    ("bytes", "not UTF-8"),
    ("arabic", "not a count"),
    ("underscore", "not a count"),
    ("twice", "extra line"),
])
def test_a_misbehaving_game_program_is_named_for_what_it_printed(capsys, monkeypatch, program,
                                                                 mode, says):
    code, out, err = run(["simulate", "--games", "2", "--size", "3x3", "--json",
                          "--oracle-cmd", program(mode)], capsys, monkeypatch)
    assert code == 1 and "Traceback" not in err
    reasons = [r["reason"] for r in json.loads(out)["records"]]
    assert all(says in r for r in reasons), reasons


# --- 11: long tokens ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["solve", "--lit", "x" * 1_000_000, "--size", "6x6"],
    ["solve", "--size", "y" * 1_000_000, "--all-on"],
    ["simulate", "--seed", "z" * 1_000_000],
])
def test_error_messages_cut_long_tokens(capsys, monkeypatch, argv):
    code, _, err = run(argv, capsys, monkeypatch)
    line = one_line_error(code, err)
    assert len(line) < 300 and "characters" in line


def test_transcript_problems_cut_long_tokens(tmp_path, capsys, monkeypatch):
    path = tmp_path / "t.txt"
    path.write_text("# countlo transcript 1\n# size: 6x6\n\nstart 5\nA1 " + "9" * 1_000_000 + "\n")
    code, _, err = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 2 and len(err) < 300


# --- 13: smaller ---------------------------------------------------------------------------------------

def test_bare_countlo_says_on_stderr_that_a_command_is_missing(capsys, monkeypatch):
    code, out, err = run([], capsys, monkeypatch)
    assert out == ""
    assert "no command given" in one_line_error(code, err)


def test_countlo_help_is_a_command(capsys, monkeypatch):
    code, out, _ = run(["help"], capsys, monkeypatch)
    assert code == 0 and "usage: countlo" in out
    code, out, _ = run(["help", "solve"], capsys, monkeypatch)
    assert code == 0 and "usage: countlo solve" in out


def test_one_more_problem_is_singular():
    from countlo.errors import TranscriptError

    assert str(TranscriptError([(1, "a"), (2, "b")])).endswith("(and 1 more problem)")
    assert str(TranscriptError([(1, "a"), (2, "b"), (3, "c")])).endswith("(and 2 more problems)")


@pytest.mark.parametrize("command", ["solve", "play", "replay", "simulate", None])
def test_help_fits_in_80_columns(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run([command, "--help"] if command else ["--help"], capsys, monkeypatch)
    assert code == 0
    assert max(len(line) for line in out.split("\n")) <= 80, out
    if command == "solve":
        assert "turning one pattern into another" in out


# --- 14: replay --size ---------------------------------------------------------------------------------

def test_replay_of_a_restore_file_of_a_non_square_board_takes_its_size(tmp_path, capsys,
                                                                        monkeypatch):
    from countlo.formats.hand import dumps_restore
    from countlo.hidden.record import record_of

    shape = Shape(2, 3)
    rec = record_of(shape, 0b101101, [k for k in range(6) for _ in (0, 1)])
    path = tmp_path / "r.txt"
    path.write_text(dumps_restore(rec).split("\n", 1)[1])  # without its '# size:' line
    code, _, err = run(["replay", str(path), "--format", "restore"], capsys, monkeypatch)
    assert code == 2 and "--size" in err
    code, out, err = run(["replay", str(path), "--format", "restore", "--size", "2x3", "--json"],
                         capsys, monkeypatch)
    got = json.loads(out)
    assert code == 0 and (got["rows"], got["cols"]) == (2, 3) and got["status"] == "determined"
    code, _, err = run(["replay", str(path), "--format", "restore", "--size", "3x2"],
                       capsys, monkeypatch)
    assert code in (1, 2) and "Traceback" not in err


# --- 15: simulate --json hidden ------------------------------------------------------------------------

def test_simulate_json_has_the_hidden_board_and_says_where_it_came_from(capsys, monkeypatch,
                                                                         program):
    _code, out, _ = run(["simulate", "--games", "1", "--size", "3x3", "--json",
                        "--oracle-cmd", program("ok")], capsys, monkeypatch)
    rec = json.loads(out)["records"][0]
    assert "start" in rec and "start_source" in rec
    if rec["outcome"] == "solved":
        assert rec["start"] == [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
        assert rec["start_source"].startswith("reconstructed")
    _code, out, _ = run(["simulate", "--games", "1", "--size", "3x3", "--json"], capsys, monkeypatch)
    rec = json.loads(out)["records"][0]
    assert rec["start_source"] == "simulated" and len(rec["start"]) == 3


# --- 10: an ASCII-only output encoding -----------------------------------------------------------

def test_an_ascii_only_terminal_gets_ascii_look_alikes_not_a_crash(tmp_path):
    import os
    import subprocess

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONIOENCODING="ascii",
               XDG_DATA_HOME=str(tmp_path), NO_COLOR="1")
    p = subprocess.run([PY, "-m", "countlo", "play", "--sim", "--seed", "1"], input=b"\n\nboard\n",
                       capture_output=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr.decode("ascii", "replace")
    out = p.stdout.decode("ascii")  # raises if anything but ASCII was written
    assert "clicks | " in out and "boards left" in out
