"""Every command's --json has one shape (docs/json.md; issue 26, item 9): a `schema`, the board as
rows/cols/topology/rule/states, cells as 1-based [row, column], `start` always a board and the
starting count of a hidden game `start_count`."""

from __future__ import annotations

import json

from countlo.board import Shape
from countlo.cli.main import main
from countlo.formats.jsonshape import JSON_SCHEMA, bit_grid, board_head, cell_pair, press_pairs

BOARD = ("schema", "rows", "cols", "topology", "rule", "states")


def run(capsys, argv: list[str]) -> list[dict]:
    main(argv)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()] \
        if argv[0] != "simulate" else [json.loads(capsys.readouterr().out)]


def board_of(grid: list[list[int]], shape: Shape) -> int:
    return sum(v << (r * shape.cols + c) for r, row in enumerate(grid) for c, v in enumerate(row))


def test_the_helpers_name_cells_from_one():
    shape = Shape(2, 3)
    assert board_head(shape) == {"schema": JSON_SCHEMA, "rows": 2, "cols": 3, "topology": "plane",
                                 "rule": "plus", "states": 2}
    assert cell_pair(shape, 5) == [2, 3] and press_pairs(shape, [1, 0, 0, 0, 0, 1]) == [[1, 1], [2, 3]]
    assert bit_grid(shape, 0b100001) == [[1, 0, 0], [0, 0, 1]] and bit_grid(shape, None) is None


def test_every_command_opens_with_the_same_board_keys(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# size: 3x3\nstart 4\nB2 3\nA1 4\n", encoding="utf-8")
    outputs = {
        "solve": run(capsys, ["solve", "--size", "3x3", "--lit", "A1", "--json"]),
        "generate": run(capsys, ["generate", "--size", "3x3", "--count", "2", "--seed", "3", "--json"]),
        "replay": run(capsys, ["replay", str(path), "--json"]),
        "simulate": run(capsys, ["simulate", "--size", "3x3", "--games", "2", "--json"]),
    }
    for command, objects in outputs.items():
        for obj in objects:
            head = {key: obj.get(key) for key in BOARD}
            assert head == {"schema": JSON_SCHEMA, "rows": 3, "cols": 3, "topology": "plane", "rule": "plus",
                            "states": 2}, command
            assert "size" not in obj and "hidden" not in obj, command


def test_start_is_a_board_and_cells_are_row_column_pairs(capsys, tmp_path):
    shape = Shape(3, 3)
    path = tmp_path / "game.txt"
    # a 3x3 game played from A1 + C3 lit: its counts pin the start down
    start = 1 | 1 << 8
    lines, lights = [f"start {start.bit_count()}"], start
    for cell in range(9):
        lights = shape.press(lights, cell)
        lines.append(f"{shape.name(cell)} {lights.bit_count()}")
    path.write_text("# size: 3x3\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (replay,) = run(capsys, ["replay", str(path), "--json"])
    assert replay["status"] == "determined" and replay["start_count"] == 2
    assert board_of(replay["start"], shape) == start and board_of(replay["lights"], shape) == lights
    (sim,) = run(capsys, ["simulate", "--size", "3x3", "--games", "3", "--seed", "5", "--json"])
    for rec in sim["records"]:
        board = board_of(rec["start"], shape)
        assert rec["start_count"] == board.bit_count()
        for (row, col), count in rec["steps"]:
            assert 1 <= row <= 3 and 1 <= col <= 3
            board = shape.press(board, (row - 1) * 3 + col - 1)
            assert board.bit_count() == count
