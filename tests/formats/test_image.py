"""Pictures: PNGs decoded by an independent reader and SVGs parsed, checked cell by cell against
the boards they draw; the commands' --image options end to end; refusals."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest
from pngread import read_png

from countlo.board import Shape
from countlo.formats import figures
from countlo.formats.image import PALETTE, SHADES, Layout, Panel, Picture, layout, save
from countlo.visible.engines.polynomial_chase import quiet_rows, rows_clear, solve_rows

RGB_NAME = {rgb: name for name, (_, rgb) in PALETTE.items()}
SVG_NAME = {"#{:02x}{:02x}{:02x}".format(*rgb): name for name, (_, rgb) in PALETTE.items()}


def pixel(png, x: int, y: int) -> str:
    _, _, palette, rows = png
    return RGB_NAME[palette[rows[y][x]]]


def panel_rows(png, lay: Layout, i: int, on: str, off: str) -> list[int]:
    """The board drawn in panel i, read back from the pixels: every pixel of each cell's square
    must be `on` or `off`, all the same; with grid lines, the pixels around it are grid."""
    shape = lay.shape
    out = []
    for r in range(shape.rows):
        row = 0
        for c in range(shape.cols):
            x, y, side = lay.cell_box(i, r, c)
            names = {pixel(png, x + dx, y + dy) for dx in range(side) for dy in range(side)}
            assert len(names) == 1, (i, r, c, names)
            (name,) = names
            assert name in (on, off), (i, r, c, name)
            if lay.grid:
                assert pixel(png, x - 1, y - 1) == "grid" and pixel(png, x + side, y + side) == "grid"
            row |= (name == on) << c
        out.append(row)
    return out


def random_rows(shape: Shape, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(shape.cols) for _ in range(shape.rows)]


def colour_count(png, name: str) -> int:
    _, _, palette, rows = png
    index = [i for i, rgb in enumerate(palette) if RGB_NAME[rgb] == name]
    return sum(row.count(index[0]) for row in rows)


@pytest.mark.parametrize("size", ["5x5", "1x1", "3x17", "40x40", "200x150", "700x700"])
def test_png_cells_match_the_boards(tmp_path, size):
    shape = Shape.parse(size)
    start = random_rows(shape, 1)
    sol = solve_rows(shape, start)
    if sol.solvable:
        pic = figures.solved(shape, start, sol.presses)
        second, on = sol.presses, "press"
    else:
        pic = figures.unsolvable(shape, start, sol.witness)
        second, on = sol.witness, "quiet"
    path = tmp_path / "b.png"
    lay = save(pic, str(path))
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    assert lay.board_w == shape.cols * lay.pitch + lay.grid
    assert panel_rows(png, lay, 0, "lit", "dark") == start
    assert panel_rows(png, lay, 1, on, "blank") == second
    # every press / quiet-coloured pixel is in a cell square or the legend's swatch
    inside = (lay.pitch - lay.grid) ** 2 * sum(r.bit_count() for r in second)
    swatch = (lay.scale * 7 - 2) ** 2
    assert colour_count(png, on) == inside + swatch
    if shape.cells <= 1600:
        assert lay.grid and lay.pitch >= 14 and lay.labels  # small boards: grid and labels
    if max(shape.rows, shape.cols) >= 640:
        assert lay.pitch == 1 and not lay.grid  # one pixel a cell


def test_4095_board_is_one_pixel_a_cell(tmp_path):
    shape = Shape(4095, 4095)
    start = random_rows(shape, 2)
    sol = solve_rows(shape, start)
    assert sol.solvable
    path = tmp_path / "big.png"
    lay = save(figures.solved(shape, start, sol.presses), str(path))
    assert lay.pitch == 1 and (lay.width, lay.height) == (8358, 4635)  # as docs/solve.md says
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    assert lay.width >= 2 * 4095 and lay.height >= 4095
    _, _, palette, rows = png
    for i, board, on in ((0, start, "lit"), (1, sol.presses, "press")):
        x0, y0 = lay.board_origin(i)
        want_on = next(j for j, rgb in enumerate(palette) if RGB_NAME[rgb] == on)
        for r in range(0, 4095, 97):  # a sample of rows, every pixel of each
            seg = rows[y0 + r][x0:x0 + 4095]
            got = sum(1 << c for c, v in enumerate(seg) if v == want_on)
            assert got == board[r], (i, r)
        lit = sum(rows[y0 + r][x0:x0 + 4095].count(want_on) for r in range(4095))
        assert lit == sum(b.bit_count() for b in board)


def svg_boards(path) -> tuple[ET.Element, dict[str, list[int]]]:
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    boards = {}
    for g in root.iter(ns + "g"):
        cells = [e for e in g.iter(ns + "rect") if e.get("class") == "cell"]
        rows: dict[int, int] = {}
        for e in cells:
            r, c = int(e.get("data-row")), int(e.get("data-col"))
            name = SVG_NAME[e.get("fill")]
            rows[r] = rows.get(r, 0) | ((name in ("lit", "press", "quiet")) << c)
        boards[g.get("data-title")] = [rows[r] for r in sorted(rows)]
    return root, boards


def test_svg_cells_match_the_boards(tmp_path):
    shape = Shape(6, 7)
    start = random_rows(shape, 3)
    sol = solve_rows(shape, start)
    path = tmp_path / "b.svg"
    lay = save(figures.solved(shape, start, sol.presses), str(path))
    root, boards = svg_boards(path)
    assert (int(root.get("width")), int(root.get("height"))) == (lay.width, lay.height)
    n = sum(r.bit_count() for r in sol.presses)
    assert boards == {"start 6x7": start, f"presses ({n})": sol.presses}
    assert rows_clear(start, boards[f"presses ({n})"], shape.cols)


def test_solve_image_unsolvable_draws_the_proof(run_cli, tmp_path):
    path = tmp_path / "proof.png"
    res = run_cli(["solve", "--lit", "1,7,13", "--size", "5x5", "--image", str(path), "--json"])
    assert res.returncode == 1, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(5, 5)
    start = [1, 2, 4, 0, 0]
    witness = [0] * 5
    for r, c in out["witness"]:
        witness[r - 1] |= 1 << (c - 1)
    lay = layout(figures.unsolvable(shape, start, witness))
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    assert panel_rows(png, lay, 0, "lit", "dark") == start
    drawn = panel_rows(png, lay, 1, "quiet", "blank")
    assert drawn == witness
    assert sum((a & b).bit_count() for a, b in zip(drawn, start)) % 2 == 1


def test_solve_image_min_svg_and_to(run_cli, tmp_path):
    (tmp_path / "t.txt").write_text("#..\n...\n..#\n")
    path = tmp_path / "m.svg"
    res = run_cli(["solve", "--all-on", "--size", "3x3", "--to", str(tmp_path / "t.txt"), "--min",
                   "--image", str(path)])
    assert res.returncode == 0, res.stderr
    assert f"picture: {path}" in res.stdout
    _, boards = svg_boards(path)
    presses = next(v for k, v in boards.items() if k.startswith("fewest presses"))
    assert boards["start 3x3"] == [7, 7, 7] and boards["target"] == [1, 0, 4]
    assert rows_clear([6, 7, 3], presses, 3)  # the start xor the target


def test_solve_quiet_image_draws_the_basis(run_cli, tmp_path):
    path = tmp_path / "q.png"
    res = run_cli(["solve", "--all-on", "--size", "4x4", "--quiet", "--image", str(path)])
    assert res.returncode == 0, res.stderr
    shape = Shape(4, 4)
    basis = quiet_rows(shape)
    lay = layout(figures.quiet(shape, basis))
    png = read_png(path.read_bytes())
    assert (png[0], png[1]) == (lay.width, lay.height)
    drawn = [panel_rows(png, lay, i, "quiet", "blank") for i in range(4)]
    assert drawn == [list(q) for q in basis]
    for q in drawn:  # each one is quiet: pressing it leaves the all-dark board dark
        assert any(q) and rows_clear([0] * 4, q, 4)


def test_replay_image_matches_the_json(run_cli, tmp_path):
    path = tmp_path / "r.png"
    res = run_cli(["replay", "transcripts/rows-6x6.txt", "--json", "--image", str(path)])
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    shape = Shape(6, 6)
    start = [sum(v << c for c, v in enumerate(row)) for row in out["start"]]
    finish = [0] * 6
    for r, c in out["finish"]:
        finish[r - 1] |= 1 << (c - 1)
    png = read_png(path.read_bytes())
    pic = Picture(shape, [Panel("hidden start", ()), Panel("now (16 lit)", ()),
                          Panel(f"to click ({len(out['finish'])})", ())],
                  figures.LIGHTS + (("press", "click"),), ["x"])
    lay = layout(pic)
    assert png[0] == lay.width
    assert panel_rows(png, lay, 0, "lit", "dark") == start
    now = panel_rows(png, lay, 1, "lit", "dark")
    assert sum(r.bit_count() for r in now) == 16
    assert panel_rows(png, lay, 2, "press", "blank") == finish
    assert rows_clear(now, finish, 6)


def test_replay_image_unclearable_and_ambiguous(run_cli, tmp_path):
    path = tmp_path / "u.svg"
    res = run_cli(["replay", "transcripts/unclearable-5x5.txt", "--image", str(path)])
    assert res.returncode == 1, res.stderr  # no click can clear it (as solve exits for an unsolvable board); the picture is drawn
    _, boards = svg_boards(path)
    now = next(v for k, v in boards.items() if k.startswith("now"))
    q = boards["quiet pattern"]
    assert rows_clear([0] * 5, q, 5) and sum((a & b).bit_count() for a, b in zip(q, now)) % 2
    amb = tmp_path / "a.png"
    res = run_cli(["replay", "transcripts/ambiguous-6x6.txt", "--image", str(amb)])
    assert res.returncode == 1
    assert res.stderr.strip().endswith("the hidden start is not known yet; no picture written")
    assert not amb.exists()


@pytest.mark.parametrize("args, message", [
    (["solve", "--all-on", "--size", "3", "--image", "{d}/x.gif"], "must end in .png or .svg"),
    (["solve", "--all-on", "--size", "300", "--image", "{d}/x.svg"], "write a .png"),
    (["solve", "--all-on", "--size", "20000", "--image", "{d}/x.png"], "the limit is 134,217,728"),
    (["replay", "transcripts/rows-6x6.txt", "--image", "{d}/x.jpg"], "must end in .png or .svg"),
    (["solve", "--all-on", "--size", "3", "--image", "{d}/no/such/dir/x.png"], "cannot write"),
])
def test_image_refusals(run_cli, tmp_path, args, message):
    res = run_cli([a.format(d=tmp_path) for a in args])
    assert res.returncode == 2, res.stdout
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr
    assert [p.name for p in tmp_path.iterdir()] == []
    if "svg" in args[-1] or "gif" in args[-1]:
        assert res.stdout == ""  # refused before solving


def test_the_guides_pictures_are_what_the_commands_draw(run_cli, tmp_path):
    from conftest import ROOT

    page = (ROOT / "docs" / "solve.md").read_text(encoding="utf-8")  # the images sit beside it
    for args, name in ((["solve", "--lit", "1,7,13", "--size", "5x5"], "unsolvable-5x5.png"),
                       (["replay", "transcripts/rows-6x6.txt"], "replay-6x6.png"),
                       (["solve", "examples/moebius-4-states.txt", "--topology", "moebius", "--states", "4",
                         "--min"], "moebius-4-states.png")):
        assert f"--image docs/{name}" in page and f"]({name})" in page
        fresh = tmp_path / name
        res = run_cli([*args, "--image", str(fresh)])
        assert res.stdout.rstrip().endswith(f"picture: {fresh}")
        assert fresh.read_bytes() == (ROOT / "docs" / name).read_bytes()
    assert "4095 x 4095 board is a readable 8358 x 4635 PNG" in page


def panel_colours(png, lay: Layout, i: int) -> list[str]:
    """The colour drawn for each cell of panel i, read back from the pixels: every pixel of a
    cell's square is that one colour."""
    out = []
    for r in range(lay.shape.rows):
        for c in range(lay.shape.cols):
            x, y, side = lay.cell_box(i, r, c)
            names = {pixel(png, x + dx, y + dy) for dx in range(side) for dy in range(side)}
            assert len(names) == 1, (i, r, c, names)
            out.append(names.pop())
    return out


@pytest.mark.parametrize("topology, states, size", [
    ("torus", 3, "4x5"), ("moebius", 4, "5x5"), ("klein", 2, "3x6"), ("projective", 5, "4x4"),
    ("cylinder", 7, "6x3"), ("plane", 3, "2x2"), ("torus", 16, "5x5"), ("klein", 255, "3x3"),
])
def test_any_grid_board_is_drawn_cell_by_cell_with_its_joins(tmp_path, topology, states, size):
    from countlo.rules import Rules

    shape = Shape.parse(size)
    shape = Shape(shape.rows, shape.cols, Rules.make(topology, "plus", states))
    rng = random.Random(states)
    start = [rng.randrange(states) for _ in range(shape.cells)]
    presses = [rng.randrange(states) for _ in range(shape.cells)]
    pic = figures.solved_states(shape, start, presses, exact=True)
    png_path, svg_path = tmp_path / "p.png", tmp_path / "p.svg"
    lay = save(pic, str(png_path))
    save(pic, str(svg_path))
    png = read_png(png_path.read_bytes())
    shade = figures.shade
    assert panel_colours(png, lay, 0) == [shade("dark", "lit", v, states) for v in start]
    assert panel_colours(png, lay, 1) == [shade("blank", "press", v, states) for v in presses]
    if states <= SHADES + 2:  # few enough states: each has its own colour, so the picture is exact
        assert len({shade("dark", "lit", v, states) for v in range(states)}) == states
    joins = {"plane": (None, None), "cylinder": ("join", None), "torus": ("join", "join"),
             "moebius": ("twist", None), "klein": ("twist", "join"), "projective": ("twist", "twist")}[topology]
    for i in range(2):  # the outer grid lines: the join's colour on joined edges, grid otherwise
        bx, by = lay.board_origin(i)
        mid_y, mid_x = by + lay.board_h // 2, bx + lay.board_w // 2
        assert pixel(png, bx, mid_y) == pixel(png, bx + lay.board_w - 1, mid_y) == (joins[0] or "grid")
        assert pixel(png, mid_x, by) == pixel(png, mid_x, by + lay.board_h - 1) == (joins[1] or "grid")
    root = ET.parse(svg_path).getroot()
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    assert [int(e.get("data-state")) for e in cells] == start + presses
    assert all(SVG_NAME[e.get("fill")] == figures.shade("dark", "lit", int(e.get("data-state")), states)
               for e in cells[:shape.cells])
    assert len([e for e in root.iter() if e.get("class") == "join"]) == 2 * 2 * sum(j is not None for j in joins)


def test_solve_draws_any_grid_rules_and_their_proofs(run_cli, tmp_path):
    png = tmp_path / "t.png"
    grid = tmp_path / "t.txt"
    grid.write_text("0120\n2011\n1102\n0210\n", encoding="utf-8")
    res = run_cli(["solve", str(grid), "--topology", "torus", "--states", "3", "--image", str(png)])
    assert res.returncode == 1 and res.stdout.rstrip().endswith(f"picture: {png}")
    image = read_png(png.read_bytes())
    names = {RGB_NAME[image[2][v]] for row in image[3] for v in row}
    shade = figures.shade
    assert {"quiet", shade("blank", "quiet", 1, 3), "lit", shade("dark", "lit", 1, 3), "dark", "join"} <= names
