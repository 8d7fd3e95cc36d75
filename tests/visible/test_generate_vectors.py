"""`countlo generate` and `countlo practice` under other rules (issue 16 with "Every Lights Out"):
uniform over the solvable boards of a torus and of k = 3 boards (chi-square, fixed seeds), exact
fewest-press counts against brute force and against `solve --min` with the same options, and a
practice game under a rule played to a win."""

from __future__ import annotations

import io
import itertools
import json
import random
from collections import Counter

import pytest
from test_generate import chi_square, chi_square_limit

from countlo.board import Shape
from countlo.cli.main import main
from countlo.rules import Rules
from countlo.ui.practice import PracticeSession
from countlo.visible import solutions
from countlo.visible.generate import NoSuchBoardError, VectorGenerator, rules_band
from countlo.visible.practice import Practice


def shape_of(size: str, topology: str = "plane", rule: str = "plus", states: int = 2) -> Shape:
    r, c = map(int, size.split("x"))
    return Shape(r, c, Rules.make(topology, rule, states))


def all_boards(board, target: list[int] | None = None) -> dict[tuple[int, ...], int]:
    """Every start that can reach the target -> its fewest presses (with multiplicity), by
    trying every press vector."""
    k, n = solutions.states(board), board.cells
    t = target or [0] * n
    best: dict[tuple[int, ...], int] = {}
    for x in itertools.product(range(k), repeat=n):
        ax = solutions.apply(board, [0] * n, x)
        s = tuple((a - b) % k for a, b in zip(t, ax))
        best[s] = min(best.get(s, n * k), sum(x))
    return best


CASES = {
    "3x4 torus": (shape_of("3x4", "torus"), None, 40),                          # 256 of 4096
    "2x3 k=3": (shape_of("2x3", states=3), None, 40),                           # 243 of 729
    "2x4 torus k=3, lit": (shape_of("2x4", "torus", states=3), [1] * 8, 40),    # 243 of 6561
}


@pytest.mark.parametrize("case", list(CASES))
def test_uniform_over_the_solvable_boards(case):
    board, target, per_board = CASES[case]
    fewest = all_boards(board, target)
    assert len(fewest) < solutions.states(board) ** board.cells  # quiet patterns: not every board
    support = sorted(fewest)
    gen = VectorGenerator(board, random.Random(20261124), target)
    draws = per_board * len(support)
    counts: Counter = Counter()
    for _ in range(draws):
        g = gen.uniform()
        counts[tuple(g.lights)] += 1
        assert g.fewest == fewest[tuple(g.lights)]  # the exact count, checked by brute force
        assert g.presses is not None and sum(g.presses) == g.fewest
        assert solutions.apply(board, g.lights, g.presses) == (target or [0] * board.cells)
    assert chi_square(counts, support, draws) < chi_square_limit(len(support) - 1)


@pytest.mark.parametrize("case, n", [("2x3 k=3", 3), ("2x3 k=3", 6), ("3x4 torus", 4)])
def test_exactly_n_is_uniform_among_those_boards(case, n):
    board, target, _ = CASES[case]
    support = sorted(b for b, w in all_boards(board, target).items() if w == n)
    gen = VectorGenerator(board, random.Random(7), target)
    draws = 60 * len(support)
    counts = Counter(tuple(gen.exactly(n).lights) for _ in range(draws))
    assert chi_square(counts, support, draws) < chi_square_limit(len(support) - 1)


def test_bands_scale_with_the_states():
    assert [rules_band(25, 2, d) for d in ("easy", "medium", "hard")] == [(1, 4), (5, 8), (9, 25)]
    assert [rules_band(9, 3, d) for d in ("easy", "medium", "hard")] == [(1, 3), (4, 5), (6, 18)]


def boards_of(text: str) -> list[tuple[int, str]]:
    out = []
    for block in text.split("\n\n"):
        lines = [ln for ln in block.splitlines() if not ln.startswith("# countlo")]
        assert lines[0].startswith("# board ") and "fewest presses" in lines[0]
        out.append((int(lines[0].rsplit(" ", 1)[1]), "\n".join(lines[1:]) + "\n"))
    return out


@pytest.mark.parametrize("options", [
    ["--size", "4x4", "--topology", "torus", "--difficulty", "medium"],
    ["--size", "3x3", "--states", "3", "--difficulty", "easy"],
    ["--size", "3x4", "--states", "3", "--topology", "torus", "--target", "lit"],
    ["--size", "4x4", "--rule", "x", "--presses", "3"],
    ["--size", "5x5", "--topology", "klein", "--rule", "star"],
])
def test_every_generated_board_has_the_count_solve_min_finds(capsys, tmp_path, options):
    assert main(["generate", *options, "--count", "6", "--seed", "5"]) == 0
    text = capsys.readouterr().out
    named = ("--topology", "--rule", "--states", "--target")
    rules = [a for i, a in enumerate(options) if a in named or (i and options[i - 1] in named)]
    boards = boards_of(text)
    assert len(boards) == 6
    for i, (fewest, grid) in enumerate(boards):
        f = tmp_path / f"b{i}.txt"
        f.write_text(grid)
        assert main(["solve", str(f), *rules, "--min", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["count"] == fewest and out["exact"] is True
        if "--presses" in options:
            assert fewest == 3


def test_a_graph_and_a_target_file_round_trip_through_solve(capsys, tmp_path):
    graph = tmp_path / "g.txt"
    graph.write_text("a b\nb c\nc d\nd a\na c\n")
    assert main(["generate", "--graph", str(graph), "--states", "3", "--count", "4", "--seed", "2",
                 "--difficulty", "medium"]) == 0
    for i, (fewest, state) in enumerate(boards_of(capsys.readouterr().out)):
        f = tmp_path / f"s{i}.txt"
        f.write_text(state)
        assert main(["solve", str(f), "--graph", str(graph), "--states", "3", "--min", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["count"] == fewest
    to = tmp_path / "to.txt"
    to.write_text("#..\n.#.\n..#\n")
    assert main(["generate", "--size", "3x3", "--rule", "x", "--to", str(to), "--seed", "1",
                 "--json"]) == 0
    g = json.loads(capsys.readouterr().out)
    f = tmp_path / "start.txt"
    f.write_text("\n".join("".join(map(str, row)) for row in g["lights"]) + "\n")
    assert main(["solve", str(f), "--rule", "x", "--to", str(to), "--min", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == g["fewest"]


def test_json_under_rules_is_reproducible_and_its_presses_reach_the_target(capsys):
    args = ["generate", "--size", "3x3", "--states", "5", "--topology", "cylinder", "--seed", "3",
            "--count", "3", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0 and capsys.readouterr().out == first
    board = shape_of("3x3", "cylinder", states=5)
    for line in first.splitlines():
        g = json.loads(line)
        assert (g["topology"], g["rule"], g["states"]) == ("cylinder", "plus", 5)
        lights = [v for row in g["lights"] for v in row]
        x = [0] * 9
        for r, c, v in g["presses"]:
            x[(r - 1) * 3 + c - 1] = v
        assert solutions.apply(board, lights, x) == [0] * 9 and sum(x) == g["fewest"]


@pytest.mark.parametrize("args, code, message", [
    (["generate", "--size", "3x3", "--states", "3", "--presses", "19"], 2,
     "needs 1 to 18 presses (counted with multiplicity)"),
    (["generate", "--size", "3x3", "--states", "x"], 2, "--states must be a whole number"),
    (["generate", "--size", "3x3", "--states", "²"], 2, "--states must be a whole number"),
    (["practice", "--size", "3x3", "--states", "3", "--seed", "²"], 2, "--seed must be a whole number"),
    (["generate", "--size", "3x3", "--states", "1"], 2, "number of states must be 2..255"),
    (["generate", "--size", "3x3", "--topology", "sphere"], 2, "unknown topology"),
    (["generate", "--size", "3x3", "--to", "nowhere.txt"], 2, "cannot read nowhere.txt"),
    (["generate", "--size", "3x3", "--rule", "sigma"], 2, "is for graphs"),
    (["generate", "--size", "30x30", "--target", "lit", "--presses", "3"], 2,
     "walking all of its 1048576 solutions"),
    (["practice", "--size", "3x3", "--graph", "g.txt"], 2, "cannot read g.txt"),  # practice plays graphs too
    (["practice", "--size", "19x19", "--states", "3"], 2, "at most 18x18"),
])
def test_refusals_under_rules(run_cli, args, code, message):
    res = run_cli(args, input="")
    assert res.returncode == code, (res.stdout, res.stderr)
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


# --- practice under a rule ---------------------------------------------------------------------

def test_rules_practice_click_undo_hint_against_brute_force():
    board = shape_of("2x3", states=3)
    fewest = all_boards(board)
    rng = random.Random(3)
    for start in rng.sample(sorted(fewest), 12):
        game = Practice(board, list(start))
        assert game.optimum == fewest[start] and game.optimum_exact
        cell = rng.randrange(6)
        game.click(cell)
        assert game.lights == solutions.apply(board, list(start), [int(j == cell) for j in range(6)])
        assert game.to_go() == fewest[tuple(game.lights)]
        assert game.undo() == cell and game.lights == list(start)
        while not game.won:
            game.click(game.hint())
        assert game.moves == fewest[start]


def test_a_practice_game_under_a_rule_is_played_to_a_win_over_plain_lines():
    from countlo.ui.terminal import run_lines

    board = shape_of("3x3", "torus", "x", 3)
    gen = VectorGenerator(board, random.Random(9), [1] * 9)
    start = gen.uniform().lights
    session = PracticeSession(Practice(board, start, [1] * 9), "seed 9", goal="lit")
    solver = Practice(board, start, [1] * 9)
    moves = []
    while not solver.won:
        moves.append(board.name(solver.hint()))
        solver.click(solver.hint())
    out = io.StringIO()
    run_lines(session, io.StringIO("\n".join(["hint", "undo", *moves]) + "\n"), out)
    text = out.getvalue()
    assert "(torus, x rule, 3 states)" in text and "Turn every light on" in text
    assert "adds 1 (mod 3) to the cell and its 4 diagonal neighbours" in text
    assert "! nothing to undo yet" in text
    assert f"All lit: solved in {len(moves)} moves (the fewest possible, 1 hint)." in text
    assert session.game.lights == [1] * 9


def test_practice_under_rules_from_the_command_line(run_cli, tmp_path):
    (tmp_path / "start.txt").write_text("12\n00\n")
    res = run_cli(["practice", "start.txt", "--states", "3"], input="B1\nB1\nhint\nquit\n",
                  cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "countlo practice: 2x2 board (plane, plus rule, 3 states), start.txt" in res.stdout
    lines = [ln.rstrip() for ln in res.stdout.splitlines()]
    # each click on B1 adds 1 (mod 3) to A1, B1 and B2: 12/00, then 20/01, then 01/02
    at = [i for i, ln in enumerate(lines) if ln.startswith("   1. B1") or ln.startswith("   2. B1")]
    assert lines[at[0] + 2:at[0] + 4] == ["1   2  ..", "2  ..   1"]
    assert lines[at[1] + 2:at[1] + 4] == ["1  ..   1", "2  ..   2"]
    res = run_cli(["practice", "start.txt", "--states", "2"], input="", cwd=tmp_path)
    assert res.returncode == 2 and "state 2 is not below the number of states" in res.stderr


def test_guide_generate_then_solve_under_rules(run_cli, tmp_path):
    from conftest import ROOT

    guide = (ROOT / "docs" / "generate.md").read_text(encoding="utf-8")
    rules = ["--topology", "torus", "--states", "3"]
    res = run_cli(["generate", "--size", "4x4", *rules, "--presses", "5", "--seed", "2"])
    (tmp_path / "puzzle3.txt").write_text(res.stdout)
    first = run_cli(["solve", "puzzle3.txt", *rules, "--min"], cwd=tmp_path).stdout.splitlines()[0]
    assert "5 fewest presses counted with multiplicity (exact minimum)" in first
    assert (f"> puzzle3.txt && countlo solve puzzle3.txt {' '.join(rules)} --min | head -1\n"
            f"{first}\n") in guide


def test_a_press_count_no_board_needs_is_refused_as_none():
    """Issue 31: it said 'no board needing exactly 1 presses ... there may be none' where the
    only solvable board needs 0 presses."""
    gen = VectorGenerator(Shape(1, 1, Rules.make("plane", "ring")), random.Random(3))
    with pytest.raises(NoSuchBoardError) as err:
        gen.exactly(1)
    assert str(err.value) == "no board needs exactly 1 press here: the hardest solvable boards need 0 presses"
