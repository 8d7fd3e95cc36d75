"""`countlo solve --buttons FILE`, `--rule merlin` and directed graphs through the command line
(docs/pressmaps.md)."""

from __future__ import annotations

import itertools
import json

import pytest

from countlo.pressmap import merlin
from countlo.visible import solutions

EXAMPLES = "examples/stardew-lights.txt"


def test_the_stardew_puzzle_is_unsolvable_with_its_two_lamps_named(run_cli):
    res = run_cli(["solve", "--buttons", EXAMPLES, "--lit", "north"])
    assert res.returncode == 1
    assert "unsolvable" in res.stdout.splitlines()[0]
    assert "[north south]" in res.stdout.splitlines()[1]
    res = run_cli(["solve", "--buttons", EXAMPLES, "--lit", "north", "--json"])
    out = json.loads(res.stdout)
    assert out["solvable"] is False and out["witness"] == [["north"], ["south"]]
    assert out["lights"] == ["north", "south"] and out["buttons"] == ["lever1", "lever2"]


def brute_merlin() -> dict[tuple[int, ...], int]:
    """Every one of the 512 press sets of Merlin's Magic Square, applied by hand from the rule as
    the puzzle states it: the fewest presses reaching each start."""
    def cells(r: int, c: int) -> set[tuple[int, int]]:
        if r != 1 and c != 1:
            r0, c0 = min(r, 1), min(c, 1)
            return {(r0 + a, c0 + b) for a in (0, 1) for b in (0, 1)}
        if (r, c) == (1, 1):
            return {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)}
        return {(r, i) for i in range(3)} if r != 1 else {(i, c) for i in range(3)}

    least: dict[tuple[int, ...], int] = {}
    for x in itertools.product((0, 1), repeat=9):
        lit = [0] * 9
        for j, on in enumerate(x):
            if on:
                for r, c in cells(*divmod(j, 3)):
                    lit[r * 3 + c] ^= 1
        key = tuple(lit)
        least[key] = min(least.get(key, 10), sum(x))
    return least


def test_merlin_every_start_solved_with_the_fewest_presses():
    from countlo.visible.fewest import fewest

    least = brute_merlin()
    m = merlin()
    assert len(least) == 512  # every start is solvable (nullity 0)
    for s in itertools.product((0, 1), repeat=9):
        start = list(s)
        f = fewest(m, start)
        assert f is not None and f.exact and f.count == least[s]
        assert solutions.apply(m, start, f.presses) == [0] * 9


@pytest.mark.parametrize("lit", ["A1", "B1", "B2", "A1,C3", "A1,B1,C1,A2,B2,C2,A3,B3,C3"])
def test_merlin_min_json(run_cli, lit):
    res = run_cli(["solve", "--rule", "merlin", "--lit", lit, "--min", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    start = [0] * 9
    for name in lit.split(","):
        start[merlin().lights.index(name)] = 1
    assert out["exact"] is True and out["count"] == brute_merlin()[tuple(start)]
    presses = [0] * 9
    for r, c in out["presses"]:
        presses[(r - 1) * 3 + (c - 1)] = 1
    assert solutions.apply(merlin(), start, presses) == [0] * 9


@pytest.mark.parametrize("argv", [["--all"], ["--classes"], ["--quiet"], ["--most"]])
def test_merlin_answers_every_question(run_cli, argv):
    res = run_cli(["solve", "--rule", "merlin", *(["--lit", "B2"] if argv != ["--most"] else []), *argv])
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("Merlin's Magic Square")


def test_merlin_is_a_3x3_puzzle(run_cli):
    res = run_cli(["solve", "--rule", "merlin", "--size", "4x4", "--all-on"])
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "3x3" in res.stderr


def test_a_rectangular_table_on_names_with_k_states(run_cli, tmp_path):
    f = tmp_path / "m.txt"
    f.write_text("a: x y*2\nb: y z\nc: z\nd: x z*2  # four buttons, three lights\n")
    res = run_cli(["solve", "--buttons", str(f), "--states", "3", "--lit", "x", "--min", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["buttons"] == ["a", "b", "c", "d"] and out["lights"] == ["x", "y", "z"]
    assert out["exact"] is True


def test_a_matrix_file_and_its_quiet_patterns(run_cli, tmp_path):
    f = tmp_path / "m.txt"
    f.write_text("# buttons x lights\n110\n011\n\n101\n")  # b1 + b2 + b3 changes nothing
    res = run_cli(["solve", "--buttons", str(f), "--lit", "L1,L2", "--quiet"])
    assert res.returncode == 0, res.stderr
    assert "quiet patterns: 1 generator:" in res.stdout
    assert "3 buttons: b1 b2 b3" in res.stdout


def test_a_directed_graph_is_solved_not_refused(run_cli, tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("a -> b\nb -> c\n")
    res = run_cli(["solve", "--graph", str(f), "--rule", "sigma", "--lit", "a"])
    assert res.returncode == 1
    res = run_cli(["solve", "--graph", str(f), "--rule", "sigma", "--lit", "c"])
    assert res.returncode == 0 and "presses: b" in res.stdout


@pytest.mark.parametrize(("text", "argv", "where", "words"), [
    ("a: x y\na: y\n", [], ":2:", "listed twice"),
    ("lights: x y\na: x q\n", [], ":2:", "unknown light"),
    ("a: x x\n", [], ":1:", "listed twice"),
    ("a: x*2\n", [], ":1:", "multiplier"),
    ("a: x*3\n", ["--states", "3"], ":1:", "multiplier"),
    ("110\n01\n", [], ":2:", "same length"),
    ("120\n011\n", [], ":1:", "not below the number of states"),
    ("110\na: x\n", [], ":2:", "row of the matrix"),
    ("# nothing\n\n", [], "no buttons", "no buttons"),
    ("a x y\n", [], ":1:", "expected 'BUTTON:"),
    ("A1: A1 D9\n", ["--size", "3x3"], ":1:", "not a cell of the 3x3 grid"),
    ("110\n011\n", ["--size", "2x2"], ":1:", "columns"),
    ("a: x\nlights: x\n", [], ":2:", "'lights:' must come once"),
])
def test_mistakes_in_a_press_map_file(run_cli, tmp_path, text, argv, where, words):
    f = tmp_path / "m.txt"
    f.write_text(text)
    res = run_cli(["solve", "--buttons", str(f), "--all-on", *argv])
    assert res.returncode == 2, res.stdout
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and where in err and words in err, err
    assert "Traceback" not in res.stderr


def test_unknown_lit_light_and_two_boards(run_cli, tmp_path):
    res = run_cli(["solve", "--buttons", EXAMPLES, "--lit", "east"])
    assert res.returncode == 2 and "unknown light" in res.stderr
    res = run_cli(["solve", "--buttons", EXAMPLES, "--graph", EXAMPLES, "--all-on"])
    assert res.returncode == 2 and "--buttons or --graph" in res.stderr


def test_generate_on_a_press_map(run_cli):
    res = run_cli(["generate", "--rule", "merlin", "--seed", "3", "--count", "2", "--json"])
    assert res.returncode == 0, res.stderr
    for line in res.stdout.splitlines():
        g = json.loads(line)
        start = [v for row in g["lights"] for v in row]
        presses = [0] * 9
        for r, c in g["presses"]:
            presses[(r - 1) * 3 + (c - 1)] = 1
        assert solutions.apply(merlin(), start, presses) == [0] * 9
        assert g["fewest"] == brute_merlin()[tuple(start)]
    res = run_cli(["generate", "--buttons", EXAMPLES, "--seed", "1"])
    assert res.returncode == 0, res.stderr
    assert "press map of 2 buttons and 2 lights" in res.stdout


@pytest.mark.parametrize(("text", "where", "words"), [
    ("a -> b\na -> b\n", ":2:", "repeats line 1"),
    ("a b\na -> b\n", ":2:", "repeats line 1"),
    ("a -> b\nb a\n", ":2:", "repeats line 1"),
    ("a -> b -> c\n", ":1:", "one arc"),
    ("a -> a\n", ":1:", "self-loop"),
])
def test_mistakes_in_a_directed_graph(run_cli, tmp_path, text, where, words):
    f = tmp_path / "g.txt"
    f.write_text(text)
    res = run_cli(["solve", "--graph", str(f), "--all-on"])
    assert res.returncode == 2
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and where in err and words in err, err


def test_a_press_map_beyond_the_limits_is_refused_at_its_line(run_cli, tmp_path):
    from countlo.pressmap import MAX_SIDE

    f = tmp_path / "m.txt"
    f.write_text("".join(f"b{j}: x\n" for j in range(MAX_SIDE + 1)))
    res = run_cli(["solve", "--buttons", str(f), "--all-on"])
    assert res.returncode == 2
    assert f":{MAX_SIDE + 1}: more than {MAX_SIDE} buttons" in res.stderr


def test_chinese_words_the_proof(run_cli):
    res = run_cli(["--lang", "zh", "solve", "--buttons", EXAMPLES, "--lit", "north"])
    assert res.returncode == 1
    assert "[north south]" in res.stdout and "证明" in res.stdout


@pytest.mark.parametrize("states", [2, 3, 10])
def test_long_matrix_rows_read_as_short_ones(states):
    """Rows of BULK characters and more are read through numpy: the same map as the per-character
    reading of the same rows cut short enough, with spaces or without, Unicode spaces too; a value
    not below the states named with its line."""
    import random

    from countlo.errors import BadRuleError
    from countlo.formats import pressmaps

    rng = random.Random(states)
    width = pressmaps.BULK + 37
    rows = [[rng.choice([0] * 3 + list(range(1, states))) for _ in range(width)] for _ in range(5)]
    spaced = "\n".join(" ".join(map(str, r)) for r in rows) + "\n"
    packed = "\n".join("".join(map(str, r)) for r in rows).replace("0", "0\u00a0", 7) + "\n"
    want = tuple(tuple((i, v) for i, v in enumerate(r) if v) for r in rows)
    for text in (spaced, packed):
        pm = pressmaps.parse_press_map(text, states, "m.txt")
        assert pm.changes == want and pm.cells == width and pm.presses == 5
    short = [r[:40] for r in rows]
    assert pressmaps.parse_press_map("\n".join(" ".join(map(str, r)) for r in short), states, "m.txt").changes == \
        tuple(tuple((i, v) for i, v in enumerate(r) if v) for r in short)
    if states < 10:
        bad = spaced.splitlines()
        bad[3] = bad[3][:-1] + str(states)
        with pytest.raises(BadRuleError, match=f"m.txt:4: entry {states} is not below the number of states, {states}"):
            pressmaps.parse_press_map("\n".join(bad), states, "m.txt")
