"""`countlo play`, `simulate` and `replay` on press boards (docs/play.md, "Other boards"):
Merlin's square, a grid with holes, graphs (undirected and directed) and a --buttons table,
played to the end, their transcripts replayed and resumed, and bad input refused in one line."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

KINDS = {
    "holes-file": ["--holes", str(EXAMPLES / "ring-with-holes.txt")],
    "merlin": ["--rule", "merlin"],
    "holes": ["--size", "3x4", "--holes", "A1,C1"],
    "graph": ["--graph", str(EXAMPLES / "square-graph.txt")],
    "directed": ["--graph", str(EXAMPLES / "directed-graph.txt"), "--target", "lit"],
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_simulate_plays_every_kind_to_solved(run_cli, kind):
    res = run_cli(["simulate", "--games", "6", *KINDS[kind]])
    assert res.returncode == 0, res.stderr
    assert "solved             6" in res.stdout and "failed             0" in res.stdout


def test_simulate_counts_a_start_no_click_can_clear_and_never_calls_it_solved(run_cli):
    res = run_cli(["simulate", "--games", "6", "--buttons", str(EXAMPLES / "stardew-lights.txt")])
    assert res.returncode == 0, res.stderr
    assert "press map of 2 buttons and 2 lights" in res.stdout
    assert "cannot be cleared  2" in res.stdout and "solved             4" in res.stdout


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_simulated_transcript_of_every_kind_replays_and_resumes(run_cli, tmp_path, kind):
    for seed in range(5, 20):  # a seed whose game is not over after one click (tiny graphs end fast)
        path = tmp_path / f"{kind}-{seed}.txt"
        res = run_cli(["play", "--sim", "--seed", str(seed), "--plain", "--transcript", str(path), *KINDS[kind]],
                      input="\nquit\n")
        assert res.returncode == 0, res.stderr
        if path.exists() and "Solved" not in res.stdout:
            break
    res = run_cli(["play", "--resume", str(path), "--plain"], input="\n" * 60)
    assert res.returncode == 0, res.stderr
    assert "Solved" in res.stdout
    text = path.read_text(encoding="utf-8")
    assert "# board: " in text and text.rstrip().split("\n")[-1].startswith("# solved")
    res = run_cli(["replay", str(path)])
    assert res.returncode == 0, res.stderr
    assert "this game is won" in res.stdout
    res = run_cli(["replay", "--json", str(path)])
    assert res.returncode == 0 and '"status": "determined"' in res.stdout
    picture = tmp_path / "r.svg"  # drawn as `solve --image` draws the board: its grid, or nodes and lines
    res = run_cli(["replay", "--image", str(picture), str(path)])
    assert res.returncode == 0 and res.stdout.endswith(f"picture: {picture}\n"), res.stderr
    root = ET.fromstring(picture.read_text(encoding="utf-8"))
    titles = [g.get("data-title") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "panel"]
    lit = "4" if kind == "directed" else "0"  # the directed graph's target is all lit
    assert titles == ["hidden start", f"now ({lit} lit)"], titles


def test_an_unclearable_simulated_start_is_said_and_exits_1(run_cli):
    res = run_cli(["play", "--sim", "--seed", "1", "--plain", "--graph", str(EXAMPLES / "petersen.txt")],
                  input="\n" * 20)
    assert res.returncode == 1, res.stderr
    assert "cannot be cleared" in res.stdout and "Solved" not in res.stdout


def test_a_node_is_typed_by_name_and_an_unknown_one_is_said(run_cli):
    res = run_cli(["play", "--sim", "--seed", "2", "--plain", "--graph", str(EXAMPLES / "square-graph.txt")],
                  input="zz\nc\n" + "\n" * 10)
    assert "unknown light 'zz' (the lights are a b c d)" in res.stdout
    assert "1. c " in res.stdout


@pytest.mark.parametrize(("args", "said"), [
    (["--graph", str(EXAMPLES / "petersen.txt"), "--states", "3"], "two states"),
    (["--buttons", str(EXAMPLES / "pressmap-matrix.txt")], "as many buttons as lights"),
    (["--size", "3x3", "--holes", "Z9"], "Z9"),
    (["--size", "3x3", "--holes", "A1,A1"], "A1 is listed twice"),
    (["--size", "6x6", "--holes", str(EXAMPLES / "ring-with-holes.txt")], "holds a 5x5 board, the board is 6x6"),
    (["--rule", "merlin", "--strategy", "fixed"], "strategy fixed is for grids"),
    (["--rule", "merlin", "--holes", "A1"], "--holes is for grids"),
])
def test_bad_boards_are_refused_in_one_line_with_exit_2(run_cli, args, said):
    res = run_cli(["simulate", "--games", "2", *args])
    assert res.returncode == 2
    assert said in res.stderr and res.stderr.count("\n") == 1 and "Traceback" not in res.stderr


def test_board_options_that_do_not_apply_are_refused_before_anything_is_written(run_cli, tmp_path):
    res = run_cli(["replay", str(tmp_path / "none.txt"), "--graph", str(EXAMPLES / "square-graph.txt")])
    assert res.returncode == 2 and "unrecognized arguments: --graph" in res.stderr  # the header names the board
    path = tmp_path / "l.txt"
    res = run_cli(["play", "--listen", "0", "--rule", "merlin", "--transcript", str(path)], input="")
    assert res.returncode == 2 and "--listen follows the game page's grid" in res.stderr
    assert not path.exists()


def test_workers_play_a_board_read_from_stdin_as_one_process_does(run_cli):
    table = "lights: p q r s\nk1: p q\nk2: q r\nk3: r s\nk4: p s q\n"
    one = run_cli(["simulate", "--games", "6", "--json", "--buttons", "-"], input=table)
    two = run_cli(["simulate", "--games", "6", "--json", "--jobs", "2", "--buttons", "-"], input=table)
    assert one.returncode == two.returncode == 0, two.stderr

    def games(text: str) -> list[object]:
        import json

        return [(r["seed"], r["steps"], r["start"]) for r in json.loads(text)["records"]]

    assert games(one.stdout) == games(two.stdout)
    assert games(one.stdout)[0][1][0][0] in ("k1", "k2", "k3", "k4")  # steps name the buttons


def test_a_replay_cut_short_draws_the_clicks_that_finish(run_cli, tmp_path):
    """Merlin's square replayed from a transcript cut once the start is known: the picture has the
    hidden start, the lights now and the clicks that finish, as many as the text's plan."""
    import re

    for seed in range(5, 40):
        path = tmp_path / f"m{seed}.txt"
        run_cli(["play", "--sim", "--seed", str(seed), "--plain", "--transcript", str(path), "--rule", "merlin"],
                input="\n" * 40)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        m = re.search(r"# solved: (\d+) clicks, (\d+) to find the board, (\d+) to finish", text)
        if m and int(m.group(3)) >= 2:
            break
    else:
        pytest.fail("no seed left clicks to finish once the board was known")
    lines = text.splitlines()
    steps = [i for i, ln in enumerate(lines) if re.match(r"^[A-C][1-3] \d+$", ln)]
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[:steps[int(m.group(2)) - 1] + 1]) + "\n", encoding="utf-8")
    picture = tmp_path / "cut.svg"
    res = run_cli(["replay", "--image", str(picture), str(cut)])
    assert res.returncode == 0, res.stderr
    plan = re.search(r"Finish in (\d+) clicks?", res.stdout)
    assert plan is not None, res.stdout
    root = ET.fromstring(picture.read_text(encoding="utf-8"))
    titles = [g.get("data-title") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "panel"]
    assert titles[0] == "hidden start" and titles[2] == f"to click ({plan.group(1)})", titles
