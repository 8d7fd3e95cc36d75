"""`countlo solve` under other rules: every new option end to end, and one clean line for bad input."""

from __future__ import annotations

import itertools
import json

import pytest

from countlo.board import Shape
from countlo.graph import Graph
from countlo.rules import Rules
from countlo.visible import solutions


def values_of(pairs, shape: Shape) -> list[int]:
    out = [0] * shape.cells
    for r, c, *v in pairs:  # the classic path lists [row, col], the others [row, col, times]
        out[(r - 1) * shape.cols + c - 1] = v[0] if v else 1
    return out


@pytest.mark.parametrize("topology", ["plane", "cylinder", "torus", "moebius", "klein",
                                      "projective"])
@pytest.mark.parametrize("rule", ["plus", "x", "star", "ring", "knight"])
def test_every_topology_and_rule_through_the_cli(run_cli, topology, rule):
    res = run_cli(["solve", "--all-on", "--size", "5x4", "--topology", topology, "--rule", rule,
                   "--json"])
    assert res.returncode in (0, 1), res.stderr
    out = json.loads(res.stdout)
    shape = Shape(5, 4, Rules.make(topology, rule))
    assert out["topology"] == topology and out["rule"] == rule
    assert out["nullity"] == solutions.solve(shape, [1] * 20).nullity
    if out["solvable"]:
        assert solutions.apply(shape, [1] * 20, values_of(out["presses"], shape)) == [0] * 20
    else:
        w = values_of(out["witness"], shape)
        assert solutions.apply(shape, [0] * 20, w) is not None
        assert sum(w) % 2 == 1  # odd overlap with the all-on start


def test_three_states_min_counts_with_multiplicity(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "5x5", "--states", "3", "--min"])
    assert res.returncode == 0, res.stderr
    first = res.stdout.splitlines()[0]
    assert first == ("5x5 board (plane, plus rule, 3 states): solvable, 18 fewest presses counted "
                     "with multiplicity (exact minimum); nullity 3 (3^3 = 27 quiet patterns), "
                     "27 solutions.")
    brute = min(sum(x) for x in solutions.all_solutions(Shape(5, 5, Rules.make(states=3)),
                                                      [1] * 25))
    assert brute == 18


def test_k_state_grid_from_stdin_and_target_file(run_cli, tmp_path):
    shape = Shape(2, 3, Rules.make("torus", "plus", 4))
    start = [1, 2, 0, 0, 3, 1]
    goal = solutions.apply(shape, start, [3, 0, 1, 2, 0, 0])
    target = tmp_path / "t.txt"
    target.write_text(f"{goal[0]}{goal[1]}{goal[2]}\n{goal[3]} {goal[4]} {goal[5]}\n")
    res = run_cli(["solve", "-", "--states", "4", "--topology", "torus", "--to", str(target),
                   "--json"], input="# start\n120\n0 3 1\n")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert solutions.apply(shape, start, values_of(out["presses"], shape)) == goal


@pytest.mark.parametrize("argv", [
    ["solve", "--graph", "-", "-"],
    ["solve", "--graph", "-", "--all-on", "--to", "-"],
    ["solve", "-", "--to", "-"],
    ["solve", "-", "--to", "-", "--states", "3"],
])
def test_standard_input_feeds_one_file_only(run_cli, argv):
    """'-' twice used to read the graph (or start) from stdin and then an empty stdin for the
    other: a start of all dark solved silently, or 'no board rows found'."""
    res = run_cli(argv, input="a b\n")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == ("countlo solve: standard input ('-') can feed only one of FILE, --to, "
                                  "--graph and --buttons")


def test_piped_start_without_a_file_name_under_other_rules(run_cli):
    """`countlo solve < board.txt` reads the piped start under the classic rules; it did not
    once any rule option was given ('no start given')."""
    shape = Shape(1, 3, Rules.make("plane", "plus", 3))
    res = run_cli(["solve", "--states", "3", "--json"], input="120\n")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert solutions.apply(shape, [1, 2, 0], values_of(out["presses"], shape)) == [0, 0, 0]


@pytest.mark.parametrize("k, text, start", [
    (3, ". 2 .\n1 . -\n", [0, 2, 0, 1, 0, 0]),
    (13, "10 . 12\n- 1 .\n", [10, 0, 12, 0, 1, 0]),
])
def test_k_state_grids_read_the_dots_they_print(run_cli, k, text, start):
    """The grids solve prints show 0 as '.': such a grid, copied into a file, must read back
    (it was 'not a row of states')."""
    shape = Shape(2, 3, Rules.make("plane", "plus", k))
    res = run_cli(["solve", "-", "--states", str(k), "--json"], input=text)
    assert res.returncode in (0, 1), res.stderr
    out = json.loads(res.stdout)
    if out["solvable"]:
        assert solutions.apply(shape, start, values_of(out["presses"], shape)) == [0] * 6
    else:
        assert solutions.solve(shape, start).presses is None


@pytest.mark.parametrize("rules", [[], ["--topology", "torus", "--states", "3"]])
def test_a_big_board_with_out_does_not_ask_for_out(run_cli, tmp_path, rules):
    """Above 64x64 the summary suggested '--out FILE to save the press grid' to a user who had
    just passed --out."""
    out = tmp_path / "presses.txt"
    res = run_cli(["solve", "--all-on", "--size", "70x70", *rules, "--out", str(out)])
    assert res.returncode == 0, res.stderr
    assert "--out FILE" not in res.stdout
    assert (f"(board larger than 64x64: pass --full to print the grid and press list; the press grid "
            f"is in {out})") in res.stdout
    assert out.exists()


def test_composite_states_unsolvable_proof(run_cli):
    res = run_cli(["solve", "--lit", "1", "--size", "4x4", "--states", "4"])
    assert res.returncode == 1
    lines = res.stdout.splitlines()
    assert lines[0] == ("4x4 board (plane, plus rule, 4 states): unsolvable; 64 quiet patterns "
                        "(the group Z2 x Z2 x Z4 x Z4).")
    assert lines[1].startswith("Proof: weigh each cell by the number shown under W; every click "
                               "adds a multiple of 4")
    assert lines[1].endswith("it is 2 now and 0 for the target.")


def test_target_lit_and_quiet_basis(run_cli):
    res = run_cli(["solve", "--lit", "1", "--size", "3x3", "--topology", "torus", "--target",
                   "lit", "--quiet", "--json"])
    out = json.loads(res.stdout)
    shape = Shape(3, 3, Rules.make("torus"))
    start = [1] + [0] * 8
    if out["solvable"]:
        assert solutions.apply(shape, start, values_of(out["presses"], shape)) == [1] * 9
    assert len(out["quiet"]) == out["nullity"] == 4
    for q in out["quiet"]:
        assert solutions.apply(shape, [0] * 9, values_of(q["pattern"], shape)) == [0] * 9


def test_classic_quiet_and_target_lit(run_cli):
    res = run_cli(["solve", "--size", "4x4", "--all-on", "--target", "lit", "--quiet"])
    assert res.returncode == 0, res.stderr
    assert "4x4 board: solvable, 0 presses; nullity 4 (16 solutions)." in res.stdout
    assert "quiet patterns: a basis of 4:" in res.stdout


def test_all_and_classes_on_the_torus(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "3x3", "--topology", "torus", "--classes",
                   "--json"])
    out = json.loads(res.stdout)
    assert sum(c["size"] for c in out["classes"]) == out["solutions"] == 16
    assert len(out["symmetries"]) == 72  # 8 rotations/reflections x 9 translations
    res = run_cli(["solve", "--all-on", "--size", "3x3", "--topology", "torus", "--all", "--json"])
    assert len({json.dumps(x) for x in json.loads(res.stdout)["all"]}) == 16


@pytest.mark.parametrize("topology", ["moebius", "klein"])
def test_classes_on_the_twisted_joins_use_their_glides(run_cli, topology):
    """Moving every cell one column right, turned upside down when it crosses the twisted join,
    is a symmetry of the Moebius band and the Klein bottle: it maps clicks to clicks, so
    --classes must count it (4 rotations/reflections x 6 glides on a 3x6 board)."""
    rows, cols, n = 3, 6, 18
    shape = Shape(rows, cols, Rules.make(topology))
    glide = tuple((r if c < cols - 1 else rows - 1 - r) * cols + (c + 1) % cols
                  for r in range(rows) for c in range(cols))
    hits = solutions.columns(shape)
    assert all({glide[i]: t for i, t in hits[j].items()} == hits[glide[j]] for j in range(n))
    mirror = tuple(r * cols + cols - 1 - c for r in range(rows) for c in range(cols))
    group = {tuple(range(n))}
    while True:  # the group the glide and the left-right mirror generate
        more = {tuple(g[p[i]] for i in range(n)) for g in group for p in (glide, mirror)} | group
        if more == group:
            break
        group = more
    assert len(group) == 24
    res = run_cli(["solve", "--all-on", "--size", "3x6", "--topology", topology, "--classes", "--json"])
    out = json.loads(res.stdout)
    assert len(out["symmetries"]) == 24
    res = run_cli(["solve", "--all-on", "--size", "3x6", "--topology", topology, "--all", "--json"])
    sols = [tuple(values_of(x, shape)) for x in json.loads(res.stdout)["all"]]
    assert len(sols) > 8
    orbits = {frozenset(tuple(x[g.index(i)] for i in range(n)) for g in group) for x in sols}
    assert len(out["classes"]) == len(orbits) < len(sols)
    assert sorted(c["size"] for c in out["classes"]) == sorted(len(o) for o in orbits)


def test_classes_under_the_identity_alone_say_so(run_cli, tmp_path):
    """It printed '16 classes under the 1 symmetries of the rules ...' for a graph."""
    res = run_cli(["solve", "--graph", "examples/petersen.txt", "--all-on", "--rule", "sigma", "--classes"])
    assert res.returncode == 0, res.stderr
    assert ("16 classes, one per solution: graph automorphisms are not searched, so only the "
            "identity groups them." in res.stdout)
    rule = tmp_path / "lopsided.txt"
    rule.write_text("O#\n#.\n")  # no rotation or reflection maps this rule to itself
    res = run_cli(["solve", "--all-on", "--size", "2x3", "--rule", str(rule), "--classes"])
    assert res.returncode == 0, res.stderr
    assert "1 class, one per solution: no symmetry of the rules but the identity fixes start and target." \
        in res.stdout
    assert "symmetries" not in res.stdout


def test_rule_drawn_in_a_file(run_cli, tmp_path):
    rule = tmp_path / "rule.txt"
    rule.write_text("; the centre and the cell to its right\nO#\n")
    res = run_cli(["solve", "--all-on", "--size", "2x4", "--rule", str(rule), "--json"])
    out = json.loads(res.stdout)
    assert out["rule"] == "mask 0:0 0:1" and out["solvable"] and out["nullity"] == 0


def test_graph_sigma_and_sigma_plus(run_cli, tmp_path):
    g = tmp_path / "square.txt"
    g.write_text("# a 4-cycle\nnodes: a b c d\na b\nb c\nc d\nd a\n")
    res = run_cli(["solve", "--graph", str(g), "--lit", "a", "--rule", "sigma"])
    assert res.returncode == 1
    assert res.stdout.splitlines()[0] == ("graph of 4 nodes and 4 edges, sigma: unsolvable; "
                                          "nullity 2 (2^2 = 4 quiet patterns).")
    res = run_cli(["solve", "--graph", str(g), "--all-on", "--json"])
    out = json.loads(res.stdout)
    assert out["solvable"] and out["rule"] == "sigma+"
    graph = Graph(("a", "b", "c", "d"), ((0, 1), (0, 3), (1, 2), (2, 3)), "sigma+")
    x = [0] * 4
    for (name,) in out["presses"]:  # two states: [node], no times
        x["abcd".index(name)] = 1
    assert solutions.apply(graph, [1] * 4, x) == [0] * 4


def test_graph_state_file_with_values(run_cli, tmp_path):
    g = tmp_path / "path.txt"
    g.write_text("u v\nv w\n")
    s = tmp_path / "start.txt"
    s.write_text("u=2, w\n")
    res = run_cli(["solve", str(s), "--graph", str(g), "--states", "3", "--json"])
    out = json.loads(res.stdout)
    graph = Graph(("u", "v", "w"), ((0, 1), (1, 2)), "sigma+", 3)
    x = [0] * 3
    for name, v in out["presses"]:
        x["uvw".index(name)] = v
    assert solutions.apply(graph, [2, 0, 1], x) == [0, 0, 0]


@pytest.mark.parametrize("args, files, needle", [
    (["--all-on", "--size", "3x3", "--rule", "hex"], {}, "unknown click rule 'hex'"),
    (["--all-on", "--size", "3x3", "--topology", "sphere"], {}, "unknown topology 'sphere'"),
    (["--all-on", "--size", "3x3", "--states", "256"], {}, "2..255, not 256"),
    (["--all-on", "--size", "3x3", "--states", "1"], {}, "2..255, not 1"),
    (["--all-on", "--size", "3x3", "--rule", "R"], {"R": "...\n.#.\n"}, "no centre marked"),
    (["--all-on", "--size", "3x3", "--rule", "R"], {"R": "o\n"}, "changes no cell"),
    (["--all-on", "--size", "3x3", "--rule", "sigma"], {}, "is for graphs"),
    (["--all-on", "--size", "3x3", "--rule", "rowcol", "--topology", "torus"], {}, "rowcol"),
    (["--graph", "G", "--all-on"], {"G": "a b\nb a\n"}, "G:2: edge b a repeats line 1"),
    (["--graph", "G", "--all-on"], {"G": "a a\n"}, "G:1: self-loop on 'a'"),
    (["--graph", "G", "--all-on"], {"G": "nodes: a b\na c\n"}, "G:2: unknown node 'c'"),
    (["--graph", "G", "--all-on"], {"G": "nodes: a a\n"}, "G:1: node 'a' is listed twice"),
    (["--graph", "G", "--all-on"], {"G": "a b c\n"}, "G:1: expected one edge"),
    (["--graph", "G", "--all-on", "--rule", "plus"], {"G": "a b\n"}, "unknown graph rule"),
    (["--graph", "G", "--lit", "z"], {"G": "a b\n"}, "unknown node 'z'"),
    (["--graph", "G", "--all-on", "--topology", "torus"], {"G": "a b\n"}, "for grids"),
    (["S", "--states", "3"], {"S": "012\n31\n"}, "S line 2: state 3 is not below"),
    (["S", "--states", "3"], {"S": "012\n01\n"}, "S line 2: 2 cells, but line 1 has 3"),
    (["S", "--states", "3", "--to", "T"], {"S": "01\n", "T": "012\n"},
     "T holds a 1x3 board, the board is 1x2"),
    (["--all-on", "--size", "3x3", "--to", "T", "--target", "lit"], {"T": "1"}, "one target"),
])
def test_bad_input_is_one_line_exit_2(run_cli, tmp_path, args, files, needle):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    args = [str(tmp_path / a) if a in files else a for a in args]
    res = run_cli(["solve", *args])
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert needle in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def readme_examples() -> list[tuple[str, str]]:
    """(command, printed text) of every `$ countlo ...` example of docs/rules.md."""
    from conftest import ROOT

    section = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    out = []
    for block in section.split("```")[1::2]:
        for chunk in block.strip("\n").split("\n\n"):
            first, *rest = chunk.split("\n")
            assert first.startswith("$ countlo ")
            out.append((first[2:], "\n".join(rest)))
    return out


@pytest.mark.parametrize("command, printed", readme_examples())
def test_readme_examples_print_what_they_say(run_cli, command, printed):
    words = command.split(" | ")[0].split()[1:]
    res = run_cli(words)
    lines = res.stdout.rstrip("\n").split("\n")
    if " | head -" in command:
        lines = lines[:int(command.rsplit("-", 1)[1])]
    assert "\n".join(lines) == printed


# --- fewest presses and the most clicks under other rules ----------------------------------


def test_min_on_the_torus_is_proven_and_matches_brute_force(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--topology", "torus", "--rule", "ring",
                   "--min", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(4, 4, Rules.make("torus", "ring"))
    brute = min(sum(x) for x in solutions.all_solutions(shape, [1] * 16))
    assert out["exact"] is True and out["count"] == out["lower_bound"] == brute
    assert solutions.apply(shape, [1] * 16, values_of(out["presses"], shape)) == [0] * 16


def test_min_with_three_states_to_a_lit_target(run_cli):
    res = run_cli(["solve", "--lit", "5", "--size", "3x4", "--states", "3", "--topology",
                   "cylinder", "--rule", "ring", "--target", "lit", "--min", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(3, 4, Rules.make("cylinder", "ring", 3))
    start = [0] * 4 + [1] + [0] * 7
    brute = min(sum(x) for x in solutions.all_solutions(shape, start, [1] * 12))
    assert out["exact"] is True and out["count"] == out["lower_bound"] == brute
    assert solutions.apply(shape, start, values_of(out["presses"], shape)) == [1] * 12


@pytest.mark.parametrize("args", [
    ["--topology", "torus", "--size", "20x20"],  # two states: the coset search stops
    ["--states", "3", "--topology", "torus", "--size", "12x12"],  # three: the Z_3 search stops
])
def test_min_stopped_by_the_time_limit_reports_a_proven_lower_bound(run_cli, args):
    res = run_cli(["solve", "--all-on", *args, "--min", "--time-limit", "0.2", "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["exact"] is False and 0 < out["lower_bound"] < out["count"]
    res = run_cli(["solve", "--all-on", *args, "--min", "--time-limit", "0.2"])
    first = res.stdout.splitlines()[0]
    assert "best found in" in first and "the minimum is at least" in first


@pytest.mark.parametrize("args", [
    ["--size", "4x4", "--topology", "torus", "--rule", "ring"],
    ["--size", "3x3", "--states", "3", "--topology", "torus", "--rule", "knight"],
    ["--size", "2x3", "--states", "6"],
])
def test_most_under_other_rules_against_brute_force(run_cli, args):
    res = run_cli(["solve", "--most", "--json", *args])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(out["rows"], out["cols"], Rules.make(out["topology"], out["rule"],
                                                       out["states"]))
    k, n = out["states"], shape.cells
    least: dict[tuple[int, ...], int] = {}
    for x in itertools.product(range(k), repeat=n):
        key = tuple(solutions.apply(shape, [0] * n, list(x)))
        least[key] = min(least.get(key, n * k), sum(x))
    assert out["exact"] is True and out["most"] == max(least.values())
    start, presses = values_of(out["start"], shape), values_of(out["presses"], shape)
    assert solutions.apply(shape, start, presses) == [0] * n
    assert sum(presses) == out["most"] == out["count"]


def test_most_on_a_graph_and_refusals(run_cli, tmp_path):
    g = tmp_path / "g.txt"
    g.write_text("a b\nb c\nc d\nd a\na c\n")
    res = run_cli(["solve", "--graph", str(g), "--rule", "sigma", "--most"])
    assert res.returncode == 0, res.stderr
    assert "the hardest solvable starts need" in res.stdout and "start: " in res.stdout
    for args, needle in ((["--all-on", "--size", "3x3"], "--most is about every start"),
                         ([], "--most needs --size RxC or --graph FILE"),
                         (["--size", "5x5"], "at most 1048576 of them (3^25 here)")):
        res = run_cli(["solve", "--most", "--states", "3", *args])
        assert res.returncode == 2 and needle in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1


def test_classes_on_a_small_joined_board_partition_the_solutions(run_cli, tmp_path):
    """Issue 31: sizes 1+6+9+6 = 22 for 16 solutions; the quarter turns this board happens to
    have, composed with its column shifts, make a group of 72."""
    start = tmp_path / "z.txt"
    start.write_text("000\n000\n000\n")
    res = run_cli(["solve", str(start), "--topology", "cylinder", "--rule", "knight", "--classes", "--json"])
    out = json.loads(res.stdout)
    assert sum(c["size"] for c in out["classes"]) == out["solutions"] == 16
    assert out["group_order"] == 72 and len(out["symmetries"]) == 24
    res = run_cli(["solve", str(start), "--topology", "cylinder", "--rule", "knight", "--classes"])
    assert ("3 classes under the group of 72 symmetries generated by the 24 symmetries of the rules fixing "
            "start and target:") in res.stdout


TRIVIAL = {  # no click changes anything and the start already equals the target (issue 31)
    "1x1 ring": ["--lit", "1", "--size", "1x1", "--rule", "ring", "--target", "lit"],
    "graph with no edge": ["--graph", "GRAPH", "--all-on", "--rule", "sigma", "--target", "lit"],
    "1x1 ring, 3 states": ["--all-on", "--size", "1x1", "--rule", "ring", "--states", "3", "--target", "lit"],
}


@pytest.mark.parametrize("board", TRIVIAL)
@pytest.mark.parametrize("question", [[], ["--min"], ["--all"], ["--classes"], ["--quiet"]])
def test_trivial_boards_answer_every_question(run_cli, tmp_path, board, question):
    """`--min` divided by zero here (the widest click changes nothing)."""
    graph = tmp_path / "g.txt"
    graph.write_text("a\nb\n")
    args = [str(graph) if a == "GRAPH" else a for a in TRIVIAL[board]]
    res = run_cli(["solve", *args, *question, "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["solvable"] and out["count"] == 0 and out["presses"] == []
    if question == ["--min"]:
        assert out["exact"] and out["lower_bound"] == 0
    if question == ["--classes"]:
        assert sum(c["size"] for c in out["classes"]) == out["solutions"]


@pytest.mark.parametrize(("args", "words"), [
    (["--size", "1x1", "--rule", "ring"], "the hardest solvable starts need 0 presses"),
    (["--graph", "GRAPH", "--rule", "sigma"], "the hardest solvable starts need 0 presses"),
    (["--size", "1x1", "--topology", "torus", "--rule", "x"], "the hardest solvable starts need 1 press (exact"),
])
def test_most_on_trivial_boards(run_cli, tmp_path, args, words):
    graph = tmp_path / "g.txt"
    graph.write_text("a\nb\n")
    res = run_cli(["solve", *[str(graph) if a == "GRAPH" else a for a in args], "--most"])
    assert res.returncode == 0, res.stderr
    assert words in res.stdout


def test_a_graph_proof_names_its_nodes(run_cli, tmp_path):
    """A graph has no grid to mark: the proof names the nodes (two states) or points at the
    weights listed under it (more), instead of cells marked or shown under W."""
    cycle = tmp_path / "c5.txt"
    cycle.write_text("a b\nb c\nc d\nd e\ne a\n")
    res = run_cli(["solve", "--graph", str(cycle), "--states", "3", "--lit", "a"])
    lines = res.stdout.splitlines()
    assert res.returncode == 1 and "W" not in res.stdout
    assert lines[1].startswith("Proof: weigh each node as listed under 'weights'; every click adds a multiple of 3")
    assert lines[2] == "weights: a b c d e"  # every node weighs 1: a click adds 3 to the sum
    square = tmp_path / "square.txt"
    square.write_text("nodes: a b c d\na b\nb c\nc d\nd a\n")
    res = run_cli(["solve", "--graph", str(square), "--lit", "a", "--rule", "sigma"])
    lines = res.stdout.splitlines()
    assert res.returncode == 1 and len(lines) == 2
    assert lines[1].startswith("Proof: every click changes an even number of the nodes [")
    assert lines[1].endswith("], so how many of them are lit keeps its parity: odd now, even for the target.")
