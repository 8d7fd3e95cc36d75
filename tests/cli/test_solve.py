"""`countlo solve` end to end: outputs, JSON, and one clean line for every bad input."""

from __future__ import annotations

import json
import re

import pytest

from countlo.board import Shape
from countlo.visible.engines.polynomial_chase import clears


def board_of(pairs, shape: Shape) -> int:
    return sum(1 << ((r - 1) * shape.cols + c - 1) for r, c in pairs)


def test_all_on_6x6_json(run_cli_process):
    """End to end: the interpreter runs `python -m countlo` in a child process."""
    res = run_cli_process(["solve", "--all-on", "--size", "6x6", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(6, 6)
    assert (out["rows"], out["cols"], out["solvable"], out["nullity"]) == (6, 6, True, 0)
    assert out["count"] == len(out["presses"]) == 28
    assert clears(shape, shape.full, board_of(out["presses"], shape))


def test_grid_from_stdin_with_comment_and_mixed_symbols(run_cli_process):
    grid = "# my start\n\n1 0 1\n.#.\n* - O\n"
    res = run_cli_process(["solve", "-", "--json"], input=grid)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(3, 3)
    start = board_of([(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)], shape)
    assert clears(shape, start, board_of(out["presses"], shape))


def test_text_output_names_presses(run_cli, tmp_path):
    f = tmp_path / "b.txt"
    f.write_text("#.\n..\n")
    res = run_cli(["solve", str(f)])
    assert res.returncode == 0, res.stderr
    assert "2x2 board: solvable, 3 presses; nullity 0 (the only solution)." in res.stdout
    assert "presses: A1 B1 A2" in res.stdout


def test_lit_numbers_are_reading_order(run_cli):
    res = run_cli(["solve", "--lit", "1, 7 13", "--size", "5x5", "--json"])
    assert res.returncode == 1  # 5x5 has nullity 2: this start is not solvable
    out = json.loads(res.stdout)
    shape = Shape(5, 5)
    start = board_of([(1, 1), (2, 2), (3, 3)], shape)
    w = board_of(out["witness"], shape)
    assert shape.press_all(0, w) == 0 and (w & start).bit_count() % 2 == 1
    assert out["solvable"] is False and out["presses"] is None


def test_unsolvable_text_shows_the_quiet_pattern(run_cli):
    res = run_cli(["solve", "--lit", "1", "--size", "4x4"])
    assert res.returncode == 1
    assert "unsolvable (nullity 4)" in res.stdout
    assert "quiet pattern:" in res.stdout


def test_min_matches_a075464(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "9x9", "--min", "--json"])
    out = json.loads(res.stdout)
    assert out["count"] == 25 and out["exact"] is True


def test_all_lists_every_solution(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--all", "--json"])
    out = json.loads(res.stdout)
    shape = Shape(4, 4)
    assert out["solutions"] == 16 and out["schema"] == 2
    sols = {board_of(s, shape) for s in out["all"]}
    assert len(sols) == 16
    assert all(clears(shape, shape.full, x) for x in sols)


def test_all_refuses_politely_above_4096(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "16x16", "--all"])  # nullity 8: 256, fine
    assert res.returncode == 0
    res = run_cli(["solve", "--size", "19x19", "--all", "--lit", "1"])
    if res.returncode == 1:  # unsolvable: nothing to list
        assert "unsolvable" in res.stdout
    res = run_cli(["solve", "--all-on", "--size", "19x19", "--all"])  # nullity 16
    assert res.returncode == 2
    assert "2^16 = 65536 solutions" in res.stderr and "--limit" in res.stderr
    res = run_cli(["solve", "--all-on", "--size", "19x19", "--all", "--limit", "5", "--json"])
    assert res.returncode == 0 and len(json.loads(res.stdout)["all"]) == 5


def test_classes_under_the_identity_alone_say_so(run_cli):
    """It printed '1 class under the 1 symmetries fixing the start (identity):'."""
    res = run_cli(["solve", "--lit", "1,2", "--size", "4x5", "--classes"])
    assert res.returncode == 0, res.stderr
    assert "1 class, one per solution: no symmetry but the identity fixes the start." in res.stdout
    assert "symmetries" not in res.stdout


def test_classes_sizes_sum_to_solutions(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "9x9", "--classes", "--json"])
    out = json.loads(res.stdout)
    assert sum(c["size"] for c in out["classes"]) == 256
    assert len(out["symmetries"]) == 8


def test_to_turns_start_into_target(run_cli, tmp_path):
    start, target = tmp_path / "p.txt", tmp_path / "b.txt"
    start.write_text("111\n000\n101\n")
    target.write_text("010\n010\n010\n")
    res = run_cli(["solve", str(start), "--to", str(target), "--json"])
    out = json.loads(res.stdout)
    shape = Shape(3, 3)
    p = board_of([(1, 1), (1, 2), (1, 3), (3, 1), (3, 3)], shape)
    b = board_of([(1, 2), (2, 2), (3, 2)], shape)
    assert shape.press_all(p, board_of(out["presses"], shape)) == b


def test_huge_board_prints_a_summary_and_out_writes_the_grid(run_cli, tmp_path):
    out = tmp_path / "presses.txt"
    res = run_cli(["solve", "--all-on", "--size", "300x200", "--out", str(out)])
    assert res.returncode == 0, res.stderr
    assert "300x200 board: solvable" in res.stdout and "--full" in res.stdout
    assert len(res.stdout.splitlines()) == 2
    lines = out.read_text().splitlines()
    assert len(lines) == 300 and all(len(x) == 200 for x in lines)
    rows = [int(x[::-1], 2) for x in lines]
    from countlo.visible.engines.polynomial_chase import rows_clear
    assert rows_clear([(1 << 200) - 1] * 300, rows, 200)


def test_solve_does_not_import_z3_or_prompt_toolkit(run_cli):
    code = ("import sys, io; sys.argv = ['countlo', 'solve', '--all-on', '--size', '6x6'];"
            "from countlo.cli import main; sys.stdout = io.StringIO(); main(sys.argv[1:]);"
            "sys.stdout = sys.__stdout__;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'prompt_toolkit')))")
    import os
    import subprocess
    import sys

    from conftest import ROOT
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


@pytest.mark.parametrize("args, stdin, needle", [
    (["-"], "101\n10\n", "line 2: 2 cells, but line 1 has 3"),
    (["-"], "101\n1z1\n", "line 2, column 2: unknown character 'z'"),
    (["-"], "\n# only a comment\n\n", "no board rows"),
    (["-", "--size", "3x3"], "10\n01\n", "holds a 2x2 board but --size says 3x3"),
    (["--lit", "1,17", "--size", "4x4"], None, "--lit item 17 is off the 4x4 board"),
    (["--lit", "1,0", "--size", "4x4"], None, "--lit item 0 is off the 4x4 board"),
    (["--lit", "1,a", "--size", "4x4"], None, "--lit item 'a' is not a cell number"),
    (["--lit", "2,2", "--size", "4x4"], None, "--lit item 2 is listed twice"),
    (["--lit", "1,2"], None, "--lit needs --size"),
    (["--all-on"], None, "--all-on needs --size"),
    (["--all-on", "--size", "70000x3"], None, "board rows must be 1..65535"),
    (["--all-on", "--size", "6by6"], None, "bad board size '6by6'"),
    (["--all-on", "--size", "3x3", "--lit", "1"], None, "give one start, not --lit and --all-on"),
    (["FILE", "--all-on", "--size", "3x3"], None, "give one start, not FILE and --all-on"),
    (["--all-on", "--size", "3x3", "--limit", "3"], None, "--limit only applies with --all"),
    (["no/such/file.txt"], None, "cannot read no/such/file.txt"),
    (["-", "--to", "no/such/target.txt"], "11\n11\n", "cannot read no/such/target.txt"),
])
def test_bad_input_is_one_line_exit_2(run_cli, args, stdin, needle):
    res = run_cli(["solve", *args], input=stdin)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert needle in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr


def test_target_of_another_size_is_rejected(run_cli, tmp_path):
    t = tmp_path / "t.txt"
    t.write_text("111\n111\n")
    res = run_cli(["solve", "-", "--to", str(t)], input="11\n11\n")
    assert res.returncode == 2 and "holds a 2x3 board, the start is 2x2" in res.stderr


def test_conflicting_modes_are_rejected_by_the_parser(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "3x3", "--all", "--min"])
    assert res.returncode == 2 and "not allowed with" in res.stderr


def test_unsolvable_transform_explains_with_the_target(run_cli, tmp_path):
    start, target = tmp_path / "p.txt", tmp_path / "b.txt"
    start.write_text("1000\n0000\n0000\n0000\n")
    target.write_text("0000\n0000\n0000\n0001\n")
    res = run_cli(["solve", str(start), "--to", str(target)])
    assert res.returncode == 1
    assert "differing from the target" in res.stdout


def test_big_kernels_and_boards_stay_readable(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "257x257", "--all", "--limit", "2"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].endswith("nullity 114 (2^114 solutions).")
    assert lines[2] == "the first 2 solutions:"
    assert all(line.rstrip().endswith("presses") for line in lines[3:5]) and len(lines) == 5


def test_min_stopped_by_the_time_limit_gives_a_proven_bound(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "39x39", "--min", "--time-limit", "0.5",
                   "--json"])
    out = json.loads(res.stdout)
    assert out["nullity"] == 32 and out["exact"] is False
    assert 0 < out["lower_bound"] <= 561 <= out["count"]  # A075464(39) = 561
    shape = Shape(39, 39)
    assert clears(shape, shape.full, board_of(out["presses"], shape))
    res = run_cli(["solve", "--all-on", "--size", "39x39", "--min", "--time-limit", "0.5"])
    first = res.stdout.splitlines()[0]
    assert re.search(r"solvable, \d+ fewest presses \(best found in \d+ CPU seconds; the minimum is at "
                     r"least \d+\); nullity 32", first), first


def test_min_proves_beyond_the_old_gray_walk(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "30x30", "--min", "--json"])
    out = json.loads(res.stdout)
    assert out["nullity"] == 20 and out["exact"] is True
    assert out["count"] == out["lower_bound"] == 376  # A075464(30)
    res = run_cli(["solve", "--all-on", "--size", "30x30", "--min"])
    assert res.stdout.splitlines()[0] == ("30x30 board: solvable, 376 fewest presses (exact "
                                          "minimum); nullity 20 (1048576 solutions).")  # README


def test_time_limit_needs_min_or_most_and_a_positive_number(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--time-limit", "3"])
    assert res.returncode == 2 and "--time-limit only applies with --min or --most" in res.stderr
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--min", "--time-limit", "-1"])
    assert res.returncode == 2 and "positive number of seconds" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_most_on_small_boards(run_cli):
    for size, want in (("4x4", 7), ("5x5", 15), ("6x6", 36), ("3x3", 9)):
        res = run_cli(["solve", "--size", size, "--most", "--json"])
        assert res.returncode == 0, res.stderr
        out = json.loads(res.stdout)
        assert out["exact"] is True and out["most"] == out["count"] == want
        r, c = map(int, size.split("x"))
        shape = Shape(r, c)
        start = board_of(out["start"], shape)
        presses = board_of(out["presses"], shape)
        assert clears(shape, start, presses) and presses.bit_count() == want
    res = run_cli(["solve", "--size", "5x5", "--most"])
    assert res.stdout.splitlines()[0] == ("5x5 board: the hardest solvable starts need 15 presses "
                                          "(exact; nullity 2: class counts).")


def test_most_beyond_the_exact_cases_gives_bounds(run_cli):
    res = run_cli(["solve", "--size", "9x9", "--most", "--time-limit", "1", "--json"])
    out = json.loads(res.stdout)
    assert out["exact"] is False and out["most"] is None
    assert out["lower_bound"] < out["upper_bound"] <= 41  # 1 cell outside every quiet pattern
    shape = Shape(9, 9)
    assert clears(shape, board_of(out["start"], shape), board_of(out["presses"], shape))


def test_most_out_writes_the_hardest_start_that_solve_reads_back(run_cli, tmp_path):
    out = tmp_path / "hardest.txt"
    res = run_cli(["solve", "--size", "4x4", "--most", "--out", str(out)])
    assert res.returncode == 0, res.stderr
    back = run_cli(["solve", str(out), "--min", "--json"])
    assert back.returncode == 0, back.stderr
    assert json.loads(back.stdout)["count"] == 7  # the hardest 4x4 start needs 7 presses


def test_most_wants_only_a_size(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--most"])
    assert res.returncode == 2 and "give only --size RxC" in res.stderr
    res = run_cli(["solve", "--most"])
    assert res.returncode == 2 and "--most needs --size RxC" in res.stderr
    # a lit target is refused as under other rules (it printed the hardest start for the dark one)
    for rules in ([], ["--topology", "torus"]):
        res = run_cli(["solve", "--size", "3x3", "--most", "--target", "lit", *rules])
        assert res.returncode == 2 and res.stdout == "" and "give only --size RxC" in res.stderr


def test_min_status_line_only_on_a_terminal(run_cli, tmp_path):
    """Piped: nothing on stderr. In a pseudo-terminal: a status line with the bounds so far, and
    the answer after it."""
    res = run_cli(["solve", "--all-on", "--size", "39x39", "--min", "--time-limit", "1.5",
                   "--json"])
    assert res.returncode == 0 and res.stderr == ""
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys

    from conftest import ROOT

    # wide (COLUMNS too: pytest-xdist's workers set it): the sentence stays on one line
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "solve", "--all-on", "--size",
                                           "39x39", "--min", "--time-limit", "3"],
                          env=env, cwd=str(ROOT), encoding="utf-8", timeout=120, dimensions=(24, 200))
    child.expect(r"searching 2\^32 solutions: [0-9.]+% done, best \d+ presses")
    child.expect(r"39x39 board: solvable, \d+ fewest presses \(best found in \d+ CPU seconds; the minimum "
                 r"is at least \d+\)")
    child.expect(pexpect.EOF)


def test_min_ctrl_c_reports_the_best_so_far_and_a_bound(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys

    from conftest import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "solve", "--all-on", "--size",
                                           "39x39", "--min", "--time-limit", "600", "--json"],
                          env=env, cwd=str(ROOT), encoding="utf-8", timeout=120)
    child.expect(r"searching 2\^32 solutions")
    child.sendintr()
    child.expect(r'"exact": false, "lower_bound": (\d+)')
    assert 0 < int(child.match.group(1)) <= 561  # A075464(39)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("rules", [[], ["--topology", "torus"], ["--rule", "x"], ["--states", "3"]])
def test_files_with_a_byte_order_mark_read_like_plain_ones(run_cli, tmp_path, rules):
    # Windows editors save UTF-8 with a leading byte-order mark
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text("101\n010\n100\n", encoding="utf-8")
    marked.write_text("101\n010\n100\n", encoding="utf-8-sig")
    want = run_cli(["solve", *rules, str(plain)])
    to_itself = run_cli(["solve", *rules, str(plain), "--to", str(marked)])
    assert to_itself.returncode == 0 and "0 presses" in to_itself.stdout.splitlines()[0]
    assert run_cli(["solve", *rules, str(marked)]).stdout == want.stdout
    assert run_cli(["solve", *rules, "-"], input="\ufeff101\n010\n100\n").stdout == want.stdout


@pytest.mark.parametrize("rules", [[], ["--rule", "x"]])
def test_a_file_that_is_not_utf8_names_its_line(run_cli, tmp_path, rules):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"101\n01\xff\n100\n")
    res = run_cli(["solve", *rules, str(bad)])
    assert res.returncode == 2
    assert res.stderr.strip().endswith("bad.txt line 2: not UTF-8 text (save the file as UTF-8)")
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_sentences_wrap_to_a_narrow_terminal_and_grids_stay_whole():
    """In a real terminal 40 columns wide the sentences break at word boundaries; the grids are
    never broken; piped, every line stays whole for the program reading it."""
    import os
    import sys

    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "solve", "--all-on", "--size", "5x5",
                                           "--topology", "torus", "--min"],
                          dimensions=(30, 40), env={**os.environ, "COLUMNS": "40"}, encoding="utf-8")
    child.expect(pexpect.EOF)
    import re

    shown = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", child.before)  # the status line's erase
    lines = shown.replace("\r", "").splitlines()
    assert all(len(line) <= 40 for line in lines), lines
    assert lines[0] == "5x5 board (torus, plus rule): solvable,"
    assert "1  1 1 1 1 1   1  . 1 . . ." in lines  # a grid row, whole


def test_piped_output_keeps_each_sentence_on_one_line(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "5x5", "--topology", "torus", "--min"])
    assert res.stdout.splitlines()[0].startswith("5x5 board (torus, plus rule): solvable, 5 fewest presses")


@pytest.mark.parametrize("states", ["2", "3"])
def test_a_file_of_several_generated_boards_is_refused_by_solve_and_practice(run_cli, tmp_path, states):
    """Issue 26, item 9: `generate --count 2` output was solved as one tall 6x3 board."""
    res = run_cli(["generate", "--size", "3x3", "--count", "2", "--seed", "1", "--states", states])
    assert res.returncode == 0
    two = tmp_path / "two.txt"
    two.write_text(res.stdout, encoding="utf-8")
    for command in (["solve", str(two), "--states", states], ["practice", str(two), "--states", states]):
        res = run_cli(command)
        assert res.returncode == 2 and res.stdout == ""
        assert res.stderr == (f"countlo {command[0]}: {two} holds 2 boards (the '# board' lines 2, 7, as countlo "
                              "generate writes them): copy the one you want into a file of its own\n")
    one = tmp_path / "one.txt"
    one.write_text(run_cli(["generate", "--size", "3x3", "--seed", "1", "--states", states]).stdout, encoding="utf-8")
    res = run_cli(["solve", str(one), "--states", states])
    assert res.returncode == 0 and "3x3 board" in res.stdout
