"""`countlo practice` over plain lines on the boards beyond the grid: a press map whose buttons
are not its lights (the buttons named and drawn below the lights), Merlin's square (its own rule
in words, its own size), and the limits said in one line."""

from __future__ import annotations

from conftest import ROOT

from countlo.formats.pressmaps import parse_press_map
from countlo.visible import solutions
from countlo.visible.practice import Practice

DIALS = ROOT / "examples" / "dials.txt"


def test_a_press_map_is_played_by_its_buttons(run_cli, tmp_path):
    start = tmp_path / "start.txt"
    start.write_text("green=2 blue\n")
    board = parse_press_map(DIALS.read_text(), 3, "dials.txt")
    presses = solutions.fewest(board, [0, 2, 1], None, 1000)[0]
    clicks = [board.buttons[j] for j, t in enumerate(presses) for _ in range(t)]
    r = run_cli(["practice", str(start), "--buttons", str(DIALS), "--states", "3", "--plain"],
                input="solution\nred\n" + "\n".join(clicks) + "\n")
    out = r.stdout
    assert r.returncode == 0, r.stderr
    assert "Each button changes its own lights:\n  knob1: red greenx2\n" in out
    assert "Type a button's name or click it" in out
    assert "buttons:\nknob1  == \nknob2 (==)\nknob3  == \nknob4 {==}\n" in out  # the overlay: knob2 once, knob4 twice
    assert "! 'red' is not a button of this press map or a command" in out  # a light is not clicked
    assert f"All dark: solved in {len(clicks)} moves (the fewest possible)." in out


def test_an_unwinnable_press_map_start_and_a_press_map_too_tall(run_cli, tmp_path):
    start = tmp_path / "north.txt"
    start.write_text("north\n")
    r = run_cli(["practice", str(start), "--buttons", str(ROOT / "examples" / "stardew-lights.txt"), "--plain"])
    assert r.returncode == 1 and r.stdout == ""
    assert "can never reach the target" in r.stderr and len(r.stderr.splitlines()) == 1
    tall = tmp_path / "tall.txt"
    tall.write_text("".join(f"b{j}: L{j} L{j + 1}\n" for j in range(10)))
    r = run_cli(["practice", "--buttons", str(tall), "--plain"])
    assert r.returncode == 2 and r.stderr == ("countlo practice: practice press maps have at most 18 lights and "
                                              "buttons together; this one has 21\n")


def test_merlin_is_played_on_its_own_grid_with_its_own_rule_in_words(run_cli):
    r = run_cli(["practice", "--rule", "merlin", "--seed", "2", "--plain"], input="quit\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("countlo practice: Merlin's Magic Square, seed 2\n")
    assert "Clicking a corner toggles its 2x2 block, an edge cell the three cells along its edge" in r.stdout
    assert "Type a cell (C4) or click it" in r.stdout and "node" not in r.stdout


def test_the_engine_clicks_buttons_not_lights():
    board = parse_press_map(DIALS.read_text(), 3, "dials.txt")
    game = Practice(board, [0, 2, 1])
    assert game.buttons == 4 and game.optimum == 3
    while not game.won:
        j = game.hint()
        assert j is not None and 0 <= j < 4
        game.click(j)
    assert game.moves == 3
    game.click(3, backwards=True)  # knob4 backwards takes 2 from blue: 1 away from winning
    assert game.lights == [0, 0, 1] and game.to_go() == 1
