"""Pictures of graphs and press maps (formats/network lays them out, formats/netimage draws them):
PNGs decoded by the tests' own reader and checked node by node, SVGs parsed element by element."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

import pytest
from pngread import read_png

from countlo.formats import figures
from countlo.formats.image import PALETTE
from countlo.formats.netimage import NetLayout, save
from countlo.formats.network import MAX_DRAWN, Network, check_drawable, network_of
from countlo.graph import Graph
from countlo.pressmap import PressMap

RGB_NAME = {rgb: name for name, (_, rgb) in PALETTE.items()}
SVG_NAME = {"#{:02x}{:02x}{:02x}".format(*rgb): name for name, (_, rgb) in PALETTE.items()}
shade = figures.shade

PETERSEN = Graph(tuple(f"o{i}" for i in range(5)) + tuple(f"i{i}" for i in range(5)),
                 tuple(sorted({(i, (i + 1) % 5) if i < (i + 1) % 5 else ((i + 1) % 5, i) for i in range(5)}
                              | {(5 + i, 5 + (i + 2) % 5) if i < (i + 2) % 5 else (5 + (i + 2) % 5, 5 + i)
                                 for i in range(5)} | {(i, 5 + i) for i in range(5)})))
CYCLE5 = Graph(tuple("abcde"), ((0, 1), (1, 2), (2, 3), (3, 4), (0, 4)), states=3)
DIRECTED = Graph(tuple("abcd"), ((0, 3),), arcs=((0, 1), (1, 2), (2, 0)))  # examples/directed-graph.txt
STARDEW = PressMap(("north", "south"), ("lever1", "lever2"), (((0, 1), (1, 1)), ((0, 1), (1, 1))))
DIALS = PressMap(("red", "green", "blue"), ("knob1", "knob2", "knob3", "knob4"),
                 (((0, 1), (1, 2)), ((1, 1), (2, 1)), ((0, 2), (2, 1)), ((2, 2),)), states=3)


def random_graph(n: int, edges: int, seed: int) -> Graph:
    rng = random.Random(seed)
    pairs = {(rng.randrange(i), i) for i in range(1, n)}
    while len(pairs) < edges:
        a, b = sorted(rng.sample(range(n), 2))
        pairs.add((a, b))
    return Graph(tuple(f"n{i}" for i in range(n)), tuple(sorted(pairs)))


def pixel(png, x: int, y: int) -> str:
    return RGB_NAME[png[2][png[3][y][x]]]


def drawn(tmp_path, picture, name: str = "p") -> tuple[NetLayout, tuple, ET.Element]:
    """Save the picture as PNG and SVG: (layout, decoded PNG, SVG root); the same picture twice
    is the same bytes."""
    png_path, svg_path = tmp_path / f"{name}.png", tmp_path / f"{name}.svg"
    lay = save(picture, str(png_path))
    save(picture, str(svg_path))
    first = png_path.read_bytes(), svg_path.read_bytes()
    save(picture, str(png_path))
    save(picture, str(svg_path))
    assert (png_path.read_bytes(), svg_path.read_bytes()) == first  # deterministic
    assert isinstance(lay, NetLayout)
    png = read_png(first[0])
    assert (png[0], png[1]) == (lay.width, lay.height)
    return lay, png, ET.parse(svg_path).getroot()


def centre_colours(png, lay: NetLayout, i: int) -> list[str]:
    """The colour at the centre of every point of panel i (lights, then buttons), and the same
    colour filling the 5 x 5 square around it."""
    out = []
    for p in range(len(lay.net.points)):
        x, y = lay.centre(i, p)
        names = {pixel(png, x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
        assert len(names) == 1, (i, lay.net.names[p], names)
        out.append(names.pop())
    return out


def panels(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "panel"]


def of_class(group: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in group.iter() if e.get("class") == cls]


def check_svg_panel(group: ET.Element, net: Network, values: list[int] | None, buttons: bool) -> None:
    """One circle per light and one square per button, named, with the panel's values on the
    points it shades; one name text per point; one line per link and one arrowhead per arc."""
    circles = of_class(group, "node")
    assert [c.get("data-name") for c in circles] == list(net.lights)
    assert [r.get("data-name") for r in of_class(group, "button")] == list(net.buttons)
    assert [t.text for t in of_class(group, "name")] == list(net.names)
    links = of_class(group, "link")
    assert [(e.get("data-from"), e.get("data-to")) for e in links] == [
        (net.names[a], net.names[b]) for a, b, _m, _d in net.links]
    assert len(of_class(group, "arrow")) == sum(d for *_abm, d in net.links)
    shaded = of_class(group, "button") if buttons and net.buttons else circles
    if values is not None:
        assert [int(e.get("data-state")) for e in shaded] == values


def test_an_undirected_graph_is_drawn_node_by_node(tmp_path):
    net = network_of(PETERSEN)
    start = [1, 0, 1, 1, 0, 0, 1, 1, 0, 1]
    presses = [0, 1, 1, 0, 0, 1, 0, 0, 1, 1]
    lay, png, root = drawn(tmp_path, figures.solved_states(net, start, presses))
    assert centre_colours(png, lay, 0) == [shade("dark", "lit", v, 2) for v in start]
    assert centre_colours(png, lay, 1) == [shade("blank", "press", v, 2) for v in presses]
    for i in range(2):  # every edge is a grey line: its middle is drawn, no arrowhead anywhere
        for a, b, _m, _d in net.links:
            (xa, ya), (xb, yb) = lay.centre(i, a), lay.centre(i, b)
            mx, my = (xa + xb) // 2, (ya + yb) // 2
            assert "grid" in {pixel(png, mx + dx, my + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    g0, g1 = panels(root)
    check_svg_panel(g0, net, start, False)
    check_svg_panel(g1, net, presses, True)
    assert not of_class(root, "arrow")


def test_node_names_are_apart_and_inside_the_board():
    """No two nodes closer than a node and its name (the layout pushes them apart)."""
    for g in (PETERSEN, CYCLE5, random_graph(30, 45, 5), random_graph(80, 120, 2)):
        net = network_of(g)
        side = net.extent[0]
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in net.points)
        least = min(math.dist(p, q) for k, p in enumerate(net.points) for q in net.points[k + 1:])
        assert least * side >= 0.9, (g, least * side)


def test_a_directed_graph_has_an_arrowhead_on_each_arc(tmp_path):
    net = network_of(DIRECTED)
    start = [1, 0, 0, 0]
    lay, png, root = drawn(tmp_path, figures.solved_states(net, start, [1, 1, 1, 1]))
    assert centre_colours(png, lay, 0) == ["lit", "dark", "dark", "dark"]
    assert centre_colours(png, lay, 1) == ["press"] * 4
    r = lay.radius
    for a, b, _m, directed in net.links:
        (xa, ya), (xb, yb) = lay.centre(0, a), lay.centre(0, b)
        d = math.hypot(xb - xa, yb - ya)
        ux, uy = (xb - xa) / d, (yb - ya) / d
        back = r + 1 + (r + 4) // 2  # inside the arrowhead: half its length back from its tip
        near_b = pixel(png, round(xb - ux * back), round(yb - uy * back))
        near_a = pixel(png, round(xa + ux * back), round(ya + uy * back))
        assert near_b == ("ink" if directed else near_b) and near_a != "ink", (a, b, near_a, near_b)
        if not directed:
            assert near_b != "ink"
    check_svg_panel(panels(root)[0], net, start, False)
    assert len(of_class(root, "arrow")) == 2 * 3


def test_a_three_state_graph_and_its_proof(tmp_path):
    net = network_of(CYCLE5)
    start = [1, 0, 2, 0, 0]
    weights = [1, 1, 1, 1, 1]
    lay, png, root = drawn(tmp_path, figures.unsolvable_states(net, start, weights))
    assert centre_colours(png, lay, 0) == [shade("dark", "lit", v, 3) for v in start]
    assert centre_colours(png, lay, 1) == [shade("blank", "quiet", w, 3) for w in weights]
    assert len({shade("dark", "lit", v, 3) for v in range(3)}) == 3
    g0, g1 = panels(root)
    check_svg_panel(g0, net, start, False)
    check_svg_panel(g1, net, weights, False)
    assert g1.get("data-title") == "weights"


def proof_pixels(png, lay: NetLayout, name: str) -> list[tuple[int, int]]:
    index = [k for k, rgb in enumerate(png[2]) if RGB_NAME[rgb] == name]
    return [(x, y) for y, row in enumerate(png[3]) for x, v in enumerate(row) if v in index
            and y < lay.footer_y]


def test_a_press_map_draws_lights_buttons_and_the_proof(tmp_path):
    net = network_of(STARDEW)
    assert net.names == ("north", "south", "lever1", "lever2")
    lay, png, root = drawn(tmp_path, figures.unsolvable_states(net, [1, 0], [1, 1]))
    assert centre_colours(png, lay, 0) == ["lit", "dark", "background", "background"]  # buttons white
    assert centre_colours(png, lay, 1) == ["quiet", "quiet", "background", "background"]
    # the proof's colour is on the two lamps of the proof panel and nowhere else above the legend
    r = lay.radius
    lamps = [lay.centre(1, p) for p in (0, 1)]
    violet = proof_pixels(png, lay, "quiet")
    assert violet and all(min(math.dist(v, c) for c in lamps) <= r for v in violet)
    for c in lamps:
        assert any(math.dist(v, c) <= 1 for v in violet)
    for i in range(2):  # the buttons sit above the lights, each joined to both lamps
        assert all(lay.centre(i, b)[1] < lay.centre(i, lt)[1] for b in (2, 3) for lt in (0, 1))
    g0, g1 = panels(root)
    check_svg_panel(g0, net, [1, 0], False)
    check_svg_panel(g1, net, [1, 1], False)
    assert len(of_class(g0, "link")) == 4


def test_a_press_map_highlights_the_pressed_buttons_and_writes_amounts(tmp_path):
    net = network_of(DIALS)
    presses = [2, 2, 0, 2]
    lay, png, root = drawn(tmp_path, figures.solved_states(net, [1, 0, 0], presses))
    assert centre_colours(png, lay, 0) == [shade("dark", "lit", v, 3) for v in (1, 0, 0)] + ["background"] * 4
    assert centre_colours(png, lay, 1) == ["background"] * 3 + [shade("blank", "press", v, 3) for v in presses]
    g0, g1 = panels(root)
    check_svg_panel(g1, net, presses, True)
    assert sorted(t.text for t in of_class(g0, "amount")) == ["2", "2", "2"]  # knob1 green, knob3 red, knob4 blue


def test_quiet_patterns_of_a_graph_shade_the_pressed_nodes(tmp_path):
    net = network_of(PETERSEN)
    q = [1, 0, 1, 0, 0, 1, 1, 0, 0, 0]
    lay, png, root = drawn(tmp_path, figures.quiet_states(net, [q, q[::-1]], 5))
    assert centre_colours(png, lay, 0) == [shade("blank", "quiet", v, 2) for v in q]
    assert centre_colours(png, lay, 1) == [shade("blank", "quiet", v, 2) for v in q[::-1]]
    assert len(panels(root)) == 2


def test_big_boards_are_refused_and_the_limit_drawn():
    path = Graph(tuple(f"v{i}" for i in range(MAX_DRAWN + 1)), tuple((i, i + 1) for i in range(MAX_DRAWN)))
    with pytest.raises(Exception, match=f"at most {MAX_DRAWN} nodes.*has {MAX_DRAWN + 1}"):
        check_drawable(path)
    wide = PressMap(tuple(f"l{i}" for i in range(150)), tuple(f"b{i}" for i in range(51)),
                    tuple(((i, 1),) for i in range(51)))
    with pytest.raises(Exception, match="at most 200 lights and buttons"):
        network_of(wide)
    check_drawable(Graph(path.nodes[:MAX_DRAWN], path.edges[:MAX_DRAWN - 1]))


def test_names_xml_cannot_hold_are_shown_escaped_in_the_svg(tmp_path):
    """A node name may hold control characters (a graph file's names are any text without spaces,
    commas, '=' or '#'); the SVG still parses and shows them as the terminal does."""
    g = Graph(("a\x1b[2J", "b\ufffe", "c&<\">"), ((0, 1), (1, 2)))
    net = network_of(g)
    lay, png, root = drawn(tmp_path, figures.solved_states(net, [1, 0, 0], [1, 1, 0]))
    assert [t.text for t in of_class(root, "name")][:3] == ["a\\x1b[2J", "b\\ufffe", 'c&<">']
    assert centre_colours(png, lay, 0) == ["lit", "dark", "dark"]
