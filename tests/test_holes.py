"""Boards with holes: a grid file marks cells that are not there with `x`; the board is the grid's
rules on the cells that are (countlo.pressmap.holed), checked against the full grid and brute force."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from countlo.board import Shape
from countlo.pressmap import HOLE, holed
from countlo.rules import Rules
from countlo.visible import fewest, solutions

CASES = [("plane", "plus", 2), ("torus", "plus", 3), ("klein", "x", 2), ("cylinder", "knight", 2),
         ("moebius", "star", 3), ("projective", "ring", 2)]


@pytest.mark.parametrize("topology, rule, k", CASES)
def test_a_click_changes_what_it_changes_on_the_full_grid_minus_the_holes(topology, rule, k):
    rng = random.Random(k)
    for _ in range(20):
        shape = Shape(rng.randint(1, 4), rng.randint(1, 4), Rules.make(topology, rule, k))
        holes = sorted(rng.sample(range(shape.cells), rng.randint(0, shape.cells - 1)))
        pm = holed(shape, holes)
        assert pm.places is not None and pm.holes == tuple(holes)
        presses = [rng.randrange(k) for _ in range(pm.presses)]
        start = [rng.randrange(k) for _ in range(pm.cells)]
        full = solutions.apply(shape, pm.expand(start), [max(v, 0) for v in pm.expand(presses)])
        assert solutions.apply(pm, start, presses) == [full[p] for p in pm.places]


@pytest.mark.parametrize("topology, rule, k", CASES[:4])
def test_solve_and_fewest_agree_with_every_press_vector(topology, rule, k):
    rng = random.Random(7)
    shape = Shape(3, 3, Rules.make(topology, rule, k))
    for _ in range(6):
        pm = holed(shape, rng.sample(range(9), 2))
        start = [rng.randrange(k) for _ in range(pm.cells)]
        best = None
        for x in itertools.product(range(k), repeat=pm.presses):
            if solutions.apply(pm, start, list(x)) == [0] * pm.cells:
                best = sum(x) if best is None else min(best, sum(x))
        sol = solutions.solve(pm, start)
        assert (sol.presses is not None) == (best is not None)
        if best is not None:
            f = fewest.fewest(pm, start)
            assert f is not None and f.exact and f.count == best


def test_solve_a_file_with_holes_in_text_json_and_back_from_out(run_cli, tmp_path):
    start = tmp_path / "ring.txt"
    start.write_text("##x##\n#...#\nx.#.x\n#...#\n##x##\n", encoding="utf-8")
    res = run_cli(["solve", str(start)])
    assert res.returncode == 0
    assert res.stdout.splitlines()[0] == ("5x5 board with 4 holes (plane, plus rule): solvable, 9 presses; "
                                          "nullity 0 (1 quiet pattern), the only solution.")
    assert "3  x . 1 . x   3  x 1 1 1 x" in res.stdout
    out = tmp_path / "presses.txt"
    data = json.loads(run_cli(["solve", str(start), "--min", "--json", "--out", str(out)]).stdout)
    assert data["holes"] == [[1, 3], [3, 1], [3, 5], [5, 3]] and data["count"] == 9 and data["exact"]
    assert out.read_text(encoding="utf-8").splitlines()[2] == "x111x"
    # the presses written are a start of the same board: pressing them again gives the same answer
    again = json.loads(run_cli(["solve", str(out), "--json"]).stdout)
    assert again["holes"] == data["holes"] and again["solvable"]


def test_a_target_with_other_holes_is_refused_in_one_line(run_cli, tmp_path):
    start, target = tmp_path / "s.txt", tmp_path / "t.txt"
    start.write_text("1x1\n111\n", encoding="utf-8")
    target.write_text("111\n1x1\n", encoding="utf-8")
    res = run_cli(["solve", str(start), "--to", str(target)])
    assert res.returncode == 2 and res.stderr.strip().splitlines() == [
        f"countlo solve: {target} has its holes (x) in other cells than the start"]


def test_the_picture_leaves_the_holes_white(run_cli, tmp_path):
    import xml.etree.ElementTree as ET

    from countlo.formats.image import PALETTE, shade

    def hex_of(name: str) -> str:
        return "#{:02x}{:02x}{:02x}".format(*PALETTE[name][1])

    start, svg = tmp_path / "h.txt", tmp_path / "h.svg"
    start.write_text("20x\n011\nx12\n", encoding="utf-8")
    res = run_cli(["solve", str(start), "--topology", "torus", "--states", "3", "--image", str(svg)])
    assert res.stdout.rstrip().endswith(f"picture: {svg}")
    cells = [e for e in ET.parse(svg).getroot().iter() if e.get("class") == "cell"][:9]  # the start panel
    fills = [e.get("fill") for e in cells]
    assert fills[2] == fills[6] == hex_of("background")
    assert fills[0] == hex_of("lit") and fills[4] == hex_of(shade("dark", "lit", 1, 3))
    assert [e.get("data-state") for e in cells] == ["2", "0", str(HOLE), "0", "1", "1", str(HOLE), "1", "2"]
