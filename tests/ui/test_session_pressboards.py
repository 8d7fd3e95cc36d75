"""The guided session on press boards (docs/MATH.md §30): a graph typed by node names behind
prompt_toolkit, Merlin's square with a mistyped count caught, transcripts of every kind written
and read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from typed import drive

from countlo.board import Shape
from countlo.countboard import PressBoard, count_board
from countlo.formats.pressmaps import parse_press_map
from countlo.formats.states import parse_graph
from countlo.formats.transcript import Header, Writer, dumps, load
from countlo.play.advice import Doubt
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.pressmap import holed, merlin
from countlo.ui.picture import picture, plain
from countlo.ui.session import Session

GRAPH = count_board(parse_graph("a b\nb c\nc d\nd a\na c\nd e\n", "graph.txt"), source="graph.txt")


def kinds() -> dict[str, PressBoard]:
    out = {
        "merlin": count_board(merlin()),
        "holes": count_board(holed(Shape(3, 4), [0, 2])),
        "graph": GRAPH,
        "directed": count_board(parse_graph("a -> b\nb -> c\nc -> a\na d\n", "d.txt"), "lit", "d.txt"),
        "buttons": count_board(parse_press_map("lights: p q r s\nk1: p q\nk2: q r\nk3: r s\nk4: p s q\n", 2, "t"),
                               source="t.txt"),
    }
    assert all(isinstance(b, PressBoard) for b in out.values())
    return out  # type: ignore[return-value]


def typed_game(board: PressBoard, seed: int) -> tuple[SimulatedOracle, list[str]]:
    """The lines a player types (cells by name) to follow the advice to the end."""
    game = SimulatedOracle(board, seed)
    session = Session(Guide(board))
    lines = [str(game.start())]
    session.handle(lines[0])
    while not session.over:
        cell = session.target()
        if cell is None:  # nothing to click: no start left can be cleared (said so)
            break
        lines.append(f"{board.name(cell)} {game.click(cell)}")
        session.handle(lines[-1])
    return game, lines


pytest.importorskip("prompt_toolkit.input")  # the tests below type into its front end (tests/typed.py)


def test_a_graph_game_typed_by_node_names_behind_prompt_toolkit(tmp_path):
    for seed in range(4):
        game, lines = typed_game(GRAPH, seed)
        if game.lights != GRAPH.goal:
            continue  # a start this graph cannot clear: said, not won
        path = tmp_path / f"g{seed}.txt"
        session = Session(Guide(GRAPH), writer=Writer.create(str(path), Header.new(GRAPH, "adaptive", None, "exact")))
        drive(session, "".join(line + "\r" for line in lines))
        assert session.guide.done and session.guide.known() == game.board
        assert load(str(path)).record == session.guide.record
        return
    pytest.fail("no seed gave a clearable start")


def test_the_picture_of_a_graph_is_a_row_of_names_and_a_grid_with_holes_is_a_grid():
    text = plain(picture(GRAPH, [0.5] * GRAPH.cells, suggest=2))
    names, values = text.splitlines()[:2]
    assert names.split() == ["a", "b", "c", "d", "e"] and "[50]" in values
    holes = kinds()["holes"]
    drawn = plain(picture(holes, [1.0] * holes.cells)).splitlines()
    assert drawn[0].split() == ["A", "B", "C", "D"]
    assert drawn[1].startswith("1     ") and drawn[1].count("##") == 2  # A1 and C1 are holes


def test_an_unknown_node_name_is_refused_in_one_line():
    session = Session(Guide(GRAPH))
    session.handle("2")
    said = session.check("zz 3")
    assert said is not None and "unknown light 'zz'" in said and "\n" not in said.strip()


def play_with_a_typo(tmp_path: Path, board: PressBoard, seed: int, typo_at: int) -> set[str] | None:
    """A typed game whose count of step `typo_at` is typed 2 off (while still possible), then the
    true counts, as tests/ui/test_session.py plays one on grids: the player insists on a refused
    count ("!"), answers a question naming its typo, else takes Enter. The ways the typo showed
    up, or None if no such typo was possible."""
    game = SimulatedOracle(board, seed)
    path = tmp_path / f"{seed}-{typo_at}.txt"
    session = Session(Guide(board), writer=Writer.create(str(path), Header.new(board, "adaptive", None, "exact")))
    session.handle(str(game.start()))
    real, seen, typed = None, set(), 0
    while not session.over:
        typed += 1
        assert typed < 40 * board.cells
        if isinstance(session.advice(), Doubt):
            if session.pending is not None:
                seen.add("told apart")
                session.handle(str(game.click(session.pending)))
                continue
            if f"fix {typo_at} {real}" in plain(session.prompt()):
                seen.add("asked")
                session.handle(f"fix {typo_at} {real}")
            else:
                session.handle("")
            continue
        cell = session.target()
        assert cell is not None
        count = game.click(cell)
        line = f"{board.name(cell)} {count}"
        if len(session.guide.record.steps) + 1 == typo_at and real is None:
            real = count
            typos = [c for c in session.guide.possible_counts(cell)
                     if abs(c - real) == 2 and c != board.goal_count]  # a typed 0 ends any game
            if not typos:
                return None
            line = f"{board.name(cell)} {typos[0]}"
        if session.check(line) is not None:
            seen.add("insisted")
            line = "!"
        session.handle(line)
    assert game.lights == board.goal and session.guide.done
    record = load(str(path)).record
    assert record == session.guide.record and record.consistent(game.board)
    return seen


def test_a_mistyped_count_on_merlin_is_caught_and_the_game_still_ends(tmp_path):
    seen: set[str] = set()
    played = 0
    for seed in range(1, 9):
        for typo_at in (2, 3):
            found = play_with_a_typo(tmp_path, kinds()["merlin"], seed, typo_at)
            if found is not None:
                played += 1
                seen |= found
    assert played >= 4 and seen


@pytest.mark.parametrize("kind", ["merlin", "holes", "graph", "directed", "buttons"])
def test_a_transcript_of_every_kind_is_read_back_as_the_same_board(tmp_path, kind):
    board = kinds()[kind]
    game, lines = typed_game(board, 1)
    path = tmp_path / "t.txt"
    with Writer.create(str(path), Header.new(board, "adaptive", 1, "exact")) as w:
        w.start(int(lines[0]))
        for line in lines[1:]:
            name, count = line.split()
            w.step(board.parse_cell(name), int(count))
    t = load(str(path))
    assert t.record is not None and t.record.count == game.lights.bit_count()
    rebuilt = t.shape
    assert isinstance(rebuilt, PressBoard)
    assert [rebuilt.press_mask(k) for k in range(rebuilt.cells)] == [board.press_mask(k) for k in range(board.cells)]
    assert [rebuilt.name(k) for k in range(rebuilt.cells)] == [board.name(k) for k in range(board.cells)]
    assert rebuilt.goal == board.goal and rebuilt.grid == board.grid
    assert dumps(t) == Path(path).read_text()
