"""What a new user's pass over the command line found: each test guards one fix.

Commands run in-process through `main(argv)`; every refusal is one line on stderr, exit 2.
"""

from __future__ import annotations

import io
import sys

import pytest

from countlo.cli import main


def run(argv, capsys, monkeypatch, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, err: str, expected: int = 2) -> str:
    assert code == expected, err
    assert "Traceback" not in err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("command", ["solve", "play", "replay", "simulate", "generate", "practice", "userscript"])
def test_an_unknown_option_is_named_by_its_command(capsys, monkeypatch, command):
    code, out, err = run([command, "--nosuch"] + (["t.txt"] if command == "replay" else []), capsys,
                         monkeypatch)
    assert out == ""
    assert one_line(code, err) == (f"countlo {command}: unrecognized arguments: --nosuch "
                                   f"(see 'countlo {command} --help')")


def test_an_unknown_option_without_a_command_is_named_by_countlo(capsys, monkeypatch):
    code, _, err = run(["--nosuch"], capsys, monkeypatch)
    assert one_line(code, err) == "countlo: unrecognized arguments: --nosuch (see 'countlo --help')"


def test_a_node_listed_twice_in_lit_is_refused_as_a_grid_cell_is(tmp_path, capsys, monkeypatch):
    graph = tmp_path / "g.txt"
    graph.write_text("a b\nb c\n")
    code, out, err = run(["solve", "--graph", str(graph), "--lit", "a,b,a"], capsys, monkeypatch)
    assert out == "" and one_line(code, err) == "countlo solve: --lit item a is listed twice"
    code, _, err = run(["solve", "--size", "3x3", "--lit", "1,2,1"], capsys, monkeypatch)
    assert one_line(code, err) == "countlo solve: --lit item 1 is listed twice"
    code, out, _ = run(["solve", "--graph", str(graph), "--lit", "a,b"], capsys, monkeypatch)
    assert code == 0 and "presses:" in out


@pytest.mark.parametrize("board", [["--size", "3x3"], ["--graph", "GRAPH"]], ids=["grid", "graph"])
def test_two_commas_in_a_row_in_lit_are_refused_as_a_likely_typo(tmp_path, capsys, monkeypatch, board):
    graph = tmp_path / "g.txt"
    graph.write_text("1 2\n2 12\n")
    board = [str(graph) if a == "GRAPH" else a for a in board]
    code, out, err = run(["solve", *board, "--lit", "1,,2"], capsys, monkeypatch)
    assert out == "" and one_line(code, err) == (
        "countlo solve: --lit has an empty item (two commas in a row) in '1,,2'")
    for fine in ("1, 2", "1 2", ",1,2,", "1,2,"):  # spaces after commas, a comma at either end
        code, out, err = run(["solve", *board, "--lit", fine], capsys, monkeypatch)
        assert code == 0 and err == "", fine


@pytest.mark.parametrize("option, said", [
    (["--states", "3"], "--states 3: the hidden game needs two states"),
    (["--rule", "nosuch"], "unknown click rule 'nosuch'"),
    (["--topology", "sphere"], "unknown topology 'sphere'"),
])
def test_replay_refuses_a_bad_rule_option_even_for_impossible_counts(tmp_path, capsys, monkeypatch,
                                                                     option, said):
    path = tmp_path / "counts.txt"
    path.write_text("101\n010\n101\n")  # read as counts that no board shows (exit 1 without options)
    code, _, _ = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 1
    code, out, err = run(["replay", str(path), *option], capsys, monkeypatch)
    assert out == "" and said in one_line(code, err)


@pytest.mark.parametrize("command", ["solve", "generate", "practice"])
def test_help_epilogs_fit_80_columns_without_ragged_rewrapping(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run([command, "--help"], capsys, monkeypatch)
    assert code == 0
    assert max(len(line) for line in out.split("\n")) <= 80, out
    # the epilog's source lines already fit, so the help shows them as written (no line cut
    # in two, leaving a stub such as "optional." on a line of its own)
    from importlib import import_module

    epilog = import_module(f"countlo.cli.{command}").EPILOG
    assert all(len(line) <= 79 for line in epilog.split("\n")), epilog
    body = out[out.index(epilog.split("\n")[0][:30]):]
    assert "\n".join(line for line in body.split("\n")[:5]) in epilog.format(MAX_SIDE=18, MAX_NODES=18)


@pytest.mark.parametrize("size, rules, said", [
    ("1004x1004", [], "--most works on boards of at most 4096 cells (64x64) when they have 3 or more quiet "
                      "patterns; this one has 1008016 cells and nullity 4"),
    ("1025x1025", [], "--most works on boards of at most 1048576 cells (1024x1024); 1025x1025 has 1050625"),
    ("200x200", ["--topology", "torus"], "--most works on boards of at most 4096 cells (64x64) when they "
                                         "have 3 or more quiet patterns; this one has 40000 cells and nullity 64"),
])
def test_most_on_a_board_too_large_is_refused_saying_the_limit(capsys, monkeypatch, size, rules, said):
    code, out, err = run(["solve", "--size", size, "--most", *rules], capsys, monkeypatch)
    assert out == "" and one_line(code, err) == f"countlo solve: {said}"


@pytest.mark.parametrize("size", ["4x4", "5x5", "6x6", "4x5"])
def test_most_start_is_what_its_presses_light_cell_by_cell(capsys, monkeypatch, size):
    import json

    from countlo.board import Shape

    code, out, _ = run(["solve", "--size", size, "--most", "--json", "--time-limit", "1"], capsys,
                       monkeypatch)
    got = json.loads(out)
    assert code == 0 and got["presses"] is not None
    shape = Shape.parse(size)
    presses = 0
    for r, c in got["presses"]:
        presses |= 1 << ((r - 1) * shape.cols + c - 1)
    lights = shape.press_all(0, presses)  # one press mask at a time, not the row formula
    assert sorted(got["start"]) == sorted([k // shape.cols + 1, k % shape.cols + 1]
                                          for k in range(shape.cells) if lights >> k & 1)


def test_bits_and_values_agree_with_the_bit_by_bit_definition():
    import random

    from countlo.board import bits, values

    rng = random.Random(5)
    for n in (0, 1, 2, 7, 64, 65, 300):
        vec = [rng.randrange(4) for _ in range(n)]
        b = bits(vec)
        assert b == sum(1 << j for j, v in enumerate(vec) if v % 2)
        assert values(b, n) == [v % 2 for v in vec]
        assert values(b | 1 << (n + 3), n) == [v % 2 for v in vec]  # bits past n are not read


def test_most_under_rules_on_a_large_board_is_refused_in_one_line(capsys, monkeypatch):
    # (the quiet patterns of this torus used to be turned into ints bit by bit: minutes of CPU
    # before --most could say anything; now seconds)
    code, out, err = run(["solve", "--size", "1000x1000", "--topology", "torus", "--most"], capsys,
                         monkeypatch)
    assert out == "" and "at most 4096 cells (64x64)" in one_line(code, err)


@pytest.mark.parametrize("k", ["0", "-3", "1", "256", "99999999999"])
def test_solve_states_out_of_range_are_one_sentence_whatever_the_number(capsys, monkeypatch, k):
    # 0 used to get argparse's "expected a positive whole number" while 1 and 256 got this one
    code, out, err = run(["solve", "--size", "3x3", "--all-on", "--states", k], capsys, monkeypatch)
    assert out == "" and one_line(code, err) == f"countlo solve: the number of states must be 2..255, not {k}"


@pytest.mark.parametrize("k", ["1", "300"])
def test_solve_states_out_of_range_comes_before_the_image_limitation(tmp_path, capsys, monkeypatch, k):
    # --image said "classic rules only" first, as if --states 300 were a rule it could not draw
    picture = tmp_path / "board.png"
    code, out, err = run(["solve", "--size", "3x3", "--all-on", "--states", k, "--image", str(picture)],
                         capsys, monkeypatch)
    assert out == "" and one_line(code, err) == f"countlo solve: the number of states must be 2..255, not {k}"
    assert not picture.exists()
    # a valid number of states other than 2 is drawn, a shade per state
    code, out, err = run(["solve", "--size", "3x3", "--all-on", "--states", "3", "--image", str(picture)],
                         capsys, monkeypatch)
    assert code == 0 and err == "" and out.endswith(f"picture: {picture}\n") and picture.exists()


def test_play_transcript_naming_a_folder_says_it_is_a_folder(tmp_path, capsys, monkeypatch):
    # it said "already exists: resume it", and resuming a folder cannot work
    folder = tmp_path / "games"
    folder.mkdir()
    code, _, err = run(["play", "--plain", "--sim", "--seed", "1", "--transcript", str(folder)], capsys,
                       monkeypatch)
    assert one_line(code, err) == f"countlo play: cannot create {folder}: Is a directory"
    assert list(folder.iterdir()) == []
