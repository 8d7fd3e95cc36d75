"""`countlo solve --image` on graphs and press maps that are not grids, end to end: the picture
holds what the JSON answer says, node by node; Merlin's square (a grid preset) is drawn as a grid;
too many nodes are refused before anything is solved or written."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from conftest import ROOT
from pngread import read_png

from countlo.board import Shape
from countlo.formats import figures
from countlo.formats.image import PALETTE, layout
from countlo.formats.netimage import layout as net_layout
from countlo.formats.network import MAX_DRAWN, network_of
from countlo.formats.pressmaps import parse_press_map
from countlo.formats.states import parse_graph

RGB_NAME = {rgb: name for name, (_, rgb) in PALETTE.items()}
EXAMPLES = ROOT / "examples"


def colour_at(png, x: int, y: int) -> str:
    return RGB_NAME[png[2][png[3][y][x]]]


def test_the_stardew_puzzle_is_drawn_unsolvable_with_its_two_lamps_marked(run_cli, tmp_path):
    path = tmp_path / "stardew.png"
    res = run_cli(["solve", "--buttons", str(EXAMPLES / "stardew-lights.txt"), "--lit", "north",
                   "--image", str(path), "--json"])
    assert res.returncode == 1, res.stderr
    out = json.loads(res.stdout)
    proof = [name for (name, *_w) in out["witness"]]
    assert proof == ["north", "south"]
    pmap = parse_press_map((EXAMPLES / "stardew-lights.txt").read_text(encoding="utf-8"), 2, "x")
    net = network_of(pmap)
    weights = [int(name in proof) for name in net.lights]
    lay = net_layout(figures.unsolvable_states(net, [1, 0], weights))
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    start = [colour_at(png, *lay.centre(0, p)) for p in range(len(net.points))]
    marked = [colour_at(png, *lay.centre(1, p)) for p in range(len(net.points))]
    assert start == ["lit", "dark", "background", "background"]
    assert marked == ["quiet", "quiet", "background", "background"]  # the proof: both lamps


def test_a_directed_graph_as_svg(run_cli, tmp_path):
    path = tmp_path / "d.svg"
    res = run_cli(["solve", "--graph", str(EXAMPLES / "directed-graph.txt"), "--lit", "a", "--image", str(path)])
    assert res.returncode == 0, res.stderr
    assert res.stdout.rstrip().endswith(f"picture: {path}")
    root = ET.parse(path).getroot()
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "panel"]
    assert len(groups) == 2
    for g in groups:
        nodes = [e for e in g.iter() if e.get("class") == "node"]
        assert [n.get("data-name") for n in nodes] == ["a", "b", "c", "d"]
        assert sorted(e.text for e in g.iter() if e.get("class") == "name") == ["a", "b", "c", "d"]
        assert len([e for e in g.iter() if e.get("class") == "link"]) == 4  # a d, and three arcs
        assert len([e for e in g.iter() if e.get("class") == "arrow"]) == 3
    start = [int(e.get("data-state")) for e in groups[0].iter() if e.get("class") == "node"]
    assert start == [1, 0, 0, 0]


def test_a_three_state_graph_png_matches_the_answer(run_cli, tmp_path):
    graph_file = tmp_path / "c5.txt"
    graph_file.write_text("a b\nb c\nc d\nd e\ne a\n", encoding="utf-8")
    path = tmp_path / "c5.png"
    res = run_cli(["solve", "--graph", str(graph_file), "--lit", "a,c", "--states", "3", "--image", str(path),
                   "--json"])
    out = json.loads(res.stdout)
    graph = parse_graph(graph_file.read_text(encoding="utf-8")).with_rule("sigma+", 3)
    net = network_of(graph)
    png = read_png(path.read_bytes())
    start = [int(n in ("a", "c")) for n in net.lights]
    if out["solvable"]:
        presses = [0] * 5
        for name, *times in out["presses"]:
            presses[net.lights.index(name)] = times[0] if times else 1
        lay = net_layout(figures.solved_states(net, start, presses))
        second = [figures.shade("blank", "press", v, 3) for v in presses]
    else:
        weights = [0] * 5
        for name, w in out["witness"]:
            weights[net.lights.index(name)] = w
        lay = net_layout(figures.unsolvable_states(net, start, weights))
        second = [figures.shade("blank", "quiet", v, 3) for v in weights]
    assert (png[0], png[1]) == (lay.width, lay.height)
    assert [colour_at(png, *lay.centre(0, p)) for p in range(5)] == [
        figures.shade("dark", "lit", v, 3) for v in start]
    assert [colour_at(png, *lay.centre(1, p)) for p in range(5)] == second


def test_the_petersen_picture_is_the_same_bytes_in_every_process(run_cli_process, tmp_path):
    pictures = []
    for n in range(2):
        path = tmp_path / f"p{n}.png"
        res = run_cli_process(["solve", "--graph", str(EXAMPLES / "petersen.txt"), "--all-on", "--image", str(path)])
        assert res.returncode == 0, res.stderr
        pictures.append(path.read_bytes())
    assert pictures[0] == pictures[1]


def test_merlins_square_is_drawn_as_its_grid(run_cli, tmp_path):
    path = tmp_path / "m.png"
    res = run_cli(["solve", "--rule", "merlin", "--size", "3x3", "--all-on", "--image", str(path), "--json"])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    presses = [0] * 9
    for r, c in out["presses"]:
        presses[(r - 1) * 3 + c - 1] = 1
    pic = figures.solved_states(Shape(3, 3), [1] * 9, presses, words="Merlin's Magic Square")
    lay = layout(pic)
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    for k in range(9):
        x, y, side = lay.cell_box(1, k // 3, k % 3)
        assert colour_at(png, x + side // 2, y + side // 2) == ("press" if presses[k] else "blank")
        x, y, side = lay.cell_box(0, k // 3, k % 3)
        assert colour_at(png, x + side // 2, y + side // 2) == "lit"


def test_more_nodes_than_a_picture_can_show_are_refused_before_solving(run_cli, tmp_path):
    graph = tmp_path / "path.txt"
    graph.write_text("".join(f"v{i} v{i + 1}\n" for i in range(MAX_DRAWN)), encoding="utf-8")
    for suffix in ("png", "svg"):
        res = run_cli(["solve", "--graph", str(graph), "--all-on", "--image", str(tmp_path / f"x.{suffix}")])
        assert res.returncode == 2
        assert res.stdout == ""
        assert res.stderr.strip() == (f"countlo solve: --image draws at most {MAX_DRAWN} nodes, beyond which "
                                      f"names and lines cannot be read; this board has {MAX_DRAWN + 1}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["path.txt"]


def test_the_press_map_pages_pictures_are_what_the_commands_draw(run_cli, tmp_path):
    page = (ROOT / "docs" / "pressmaps.md").read_text(encoding="utf-8")  # the pictures sit beside it
    for args, name, code in (
            (["--buttons", "examples/stardew-lights.txt", "--lit", "north"], "stardew-lights.png", 1),
            (["--graph", "examples/directed-graph.txt", "--lit", "d"], "directed-graph.svg", 0)):
        assert f"$ countlo solve {' '.join(args)} --image docs/{name}" in page and f"]({name})" in page
        fresh = tmp_path / name
        res = run_cli(["solve", *[str(ROOT / a) if a.startswith("examples/") else a for a in args],
                       "--image", str(fresh)])
        assert res.returncode == code and res.stdout.rstrip().endswith(f"picture: {fresh}")
        assert fresh.read_bytes() == (ROOT / "docs" / name).read_bytes()


def test_most_draws_its_hardest_start_as_min_draws_it(run_cli, tmp_path):
    """--most --image draws the start that needs the most presses and its fewest presses: the
    same picture, byte for byte, as --min --image draws for that start (saved by --most --out),
    on a grid, Merlin's square, a 5-state graph and a 3-state press map."""
    graph = tmp_path / "c5.txt"
    graph.write_text("a b\nb c\nc d\nd e\ne a\n")
    boards = [["--size", "3x3"], ["--size", "3x3", "--rule", "merlin"],
              ["--graph", str(graph), "--states", "5"], ["--buttons", str(EXAMPLES / "dials.txt"), "--states", "3"]]
    for board in boards:
        most, fewest, start = tmp_path / "most.png", tmp_path / "fewest.png", tmp_path / "start.txt"
        drawn = run_cli(["solve", *board, "--most", "--image", str(most), "--out", str(start)])
        assert drawn.returncode == 0 and drawn.stdout.endswith(f"picture: {most}\n"), drawn.stderr
        again = run_cli(["solve", str(start), *[a for a in board if a not in ("--size", "3x3")], "--min",
                         "--image", str(fewest)])
        assert again.returncode == 0, again.stderr
        assert "(exact minimum)" in again.stdout or "exact" in again.stdout
        assert most.read_bytes() == fewest.read_bytes(), board
