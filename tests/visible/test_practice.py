"""The practice game's core: clicks, undo, hints and the optimum, against brute force."""

from __future__ import annotations

import io
import os
import random
import re
import sys

import pytest
from conftest import ROOT

from countlo.board import Shape, bits, values
from countlo.errors import BadCellError
from countlo.ui.picture import plain
from countlo.ui.practice import PracticeSession
from countlo.visible.generate import generator
from countlo.visible.practice import Practice, Unwinnable


def fewest_brute(shape: Shape, lights: int) -> int:
    best = shape.cells + 1
    for x in range(1 << shape.cells):
        if shape.press_all(lights, x) == 0:
            best = min(best, x.bit_count())
    return best


@pytest.mark.parametrize("size", ["3x3", "4x4", "2x5"])
def test_hints_win_in_the_fewest_clicks(size):
    shape = Shape.parse(size)
    gen = generator(shape, random.Random(4))
    for _ in range(5):
        start = bits(gen.uniform().lights)
        game = Practice(shape, values(start, shape.cells))
        assert game.optimum == fewest_brute(shape, start)
        while not game.won:
            game.click(game.hint())
        assert game.moves == game.optimum and game.hint() is None


def test_click_undo_and_to_go():
    shape = Shape(4, 4)
    start = shape.press_all(0, 0b1000_0100_0010_0001)  # the diagonal pressed
    game = Practice(shape, values(start, shape.cells))
    assert bits(game.lights) == start and game.to_go() == game.optimum <= 4
    game.click(shape.parse_cell("B3"))
    assert bits(game.lights) == shape.press(start, shape.parse_cell("B3")) and game.moves == 1
    assert game.to_go() == fewest_brute(shape, bits(game.lights))
    assert game.undo() == shape.parse_cell("B3") and bits(game.lights) == start and game.moves == 0
    assert game.undo() is None
    with pytest.raises(BadCellError):
        game.click(16)


def test_an_unwinnable_start_is_refused():
    shape = Shape(5, 5)
    with pytest.raises(Unwinnable):
        Practice(shape, values(1, shape.cells))  # A1 alone: 5x5 has quiet patterns and this start meets one oddly


# --- the session, its front ends, and the command ------------------------------------------



def session_of(size: str = "4x4", seed: int = 3) -> PracticeSession:
    shape = Shape.parse(size)
    gen = generator(shape, random.Random(seed))
    start = 0
    while not start:
        start = bits(gen.uniform().lights)
    return PracticeSession(Practice(shape, values(start, shape.cells)), f"seed {seed}")


def test_session_hint_undo_and_the_win_message():
    s = session_of()
    game = s.game
    assert f"{game.optimum} will do" in plain(s.greeting())
    assert s.check("undo") == "nothing to undo yet"
    assert "is off the 4x4 board" in s.check("E1")
    assert "is not a cell like C4 or a command" in s.check("jump")
    first = game.hint()
    out = plain(s.handle("hint"))
    assert out == (f"Hint: click {s.shape.name(first)} (the fewest from here: "
                   f"{game.optimum} clicks)\n")
    assert f"[{'##' if game.lights[first] else '..'}]" in plain(s.board())
    wrong = next(k for k in range(16) if k != first)
    s.handle(s.shape.name(wrong))
    assert game.moves == 1 and "[" not in plain(s.board())
    assert plain(s.handle("undo")).strip().startswith(f"undo {s.shape.name(wrong)}")
    s.handle("4 4")  # row and column work too
    assert game.clicks == [15]
    moves = 1 + game.to_go()
    while not s.over:
        out = plain(s.handle(s.shape.name(game.hint())))
    assert game.won and game.moves == moves >= game.optimum
    verdict = ("the fewest possible" if moves == game.optimum
               else f"the fewest possible was {game.optimum}")
    assert out.endswith(f"All dark: solved in {moves} moves ({verdict}, 1 hint).\n")


def test_plain_lines_front_end_plays_to_the_end():
    from countlo.ui.terminal import run_lines

    s = session_of("3x3", 1)
    game = s.game
    solution = []
    g = Practice(s.shape, game.start)
    while not g.won:
        solution.append(s.shape.name(g.hint()))
        g.click(g.hint())
    lines = ["hint", "zz", *solution]
    out = io.StringIO()
    run_lines(s, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    assert "! 'zz' is not a cell like C4" in text
    assert f"All dark: solved in {len(solution)} moves (the fewest possible, 1 hint)." in text


def feed_after_each_render(pipe, session, chunks) -> None:
    """Send each chunk once the board has been drawn again since the last chunk was sent
    (prompt_toolkit reads input typed ahead before it draws, when mouse positions are unknown).
    Renders are counted, so a render that comes before the feeder looks is not missed; if none
    comes within 30 s the feeder sends Ctrl-D, so that the front end ends and the test fails
    instead of waiting for input forever. Runs in a thread next to the front end."""
    import threading
    import time

    renders = [0]
    cond = threading.Condition()
    board = session.board

    def counting_board():
        out = board()
        with cond:
            renders[0] += 1
            cond.notify_all()
        return out

    session.board = counting_board

    def feed():
        seen = 0
        for chunk in chunks:
            with cond:
                if not cond.wait_for(lambda last=seen: renders[0] > last, 30):
                    pipe.send_text("\x04")
                    return
                seen = renders[0]
            time.sleep(0.05)  # let the render that drew it finish
            pipe.send_text(chunk)

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    return t


def test_terminal_front_end_takes_mouse_clicks_keys_and_typed_cells():
    from prompt_toolkit import input as pt_input
    from prompt_toolkit.output import DummyOutput

    from countlo.ui.clickable import run_clickable

    shape = Shape(3, 3)
    s = PracticeSession(Practice(shape, values(shape.press(shape.press(0, 4), 0), shape.cells)))
    game = s.game

    def mouse(cell: str) -> str:
        """xterm SGR press and release on the cell's lamp: the board stands on the bottom rows
        of the (40-row) dummy terminal, above the prompt, its warning line and the status bar,
        under a line of column letters; cell (r, c) is drawn at columns 4c+3..4c+4."""
        k = shape.parse_cell(cell)
        r, c = divmod(k, shape.cols)
        height = "".join(text for _style, text, *_ in s.board()).count("\n") + 1  # its last line is blank
        x, y = 4 * c + 4, DummyOutput().get_size().rows - 3 - height + 1 + r + 1
        return f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"

    with pt_input.create_pipe_input() as pipe:
        feeder = feed_after_each_render(pipe, s, [
            mouse("C3"),  # a click away from the solution
            "\x1bOQ",     # F2: undo it
            "nope\r",     # refused, stays in the prompt
            mouse("B2"),  # the two presses that win
            "A1\r",
        ])
        run_clickable(s, input=pipe, output=DummyOutput(), colour=False)
        feeder.join(5)
    assert game.won and game.clicks == [4, 0] and s.over


def test_terminal_front_end_leaves_on_ctrl_d():
    from prompt_toolkit import input as pt_input
    from prompt_toolkit.output import DummyOutput

    from countlo.ui.clickable import run_clickable

    s = session_of()
    with pt_input.create_pipe_input() as pipe:
        feeder = feed_after_each_render(pipe, s, ["A1\r", "\x04"])
        run_clickable(s, input=pipe, output=DummyOutput())
        feeder.join(5)
    assert s.game.clicks == [0] and not s.game.won


ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78]|\][^\x07]*\x07)")


@pytest.mark.parametrize("columns", [80, 36])
def test_practice_in_a_real_terminal(columns):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1",
               COLUMNS=str(columns), LINES="24")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "practice", "--seed", "3", "--size",
                                           "5x5", "--difficulty", "easy"],
                          env=env, cwd=str(ROOT), dimensions=(24, columns), encoding="utf-8",
                          timeout=30)
    child.expect("will do")
    child.expect(r"moves? \(fewest")
    for _ in range(30):
        child.send("hint\r")
        child.expect(r"Hint: click (?:\x1b\[[0-9;]*m)*([A-Z][0-9]+)")
        child.send(child.match.group(1) + "\r")
        child.expect(r"lights? on")  # the click's log line, printed once the prompt is gone
        if child.expect([r"moves? \(fewest", "All dark: solved in"]) == 1:
            break
    child.expect(pexpect.EOF)
    tail = ANSI.sub("", child.before)
    assert tail.startswith(" ") and "(the fewest possible," in " ".join(tail.split())  # may wrap
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("grid, args, code, message", [
    ("#....\n.....\n.....\n.....\n.....\n", [], 1, "can never be turned all dark"),
    ("...\n...\n", [], 2, "every light is already off"),
    ("#.\n.#\n", ["--size", "3x3"], 2, "holds a 2x2 board but --size says 3x3"),
    (None, ["--size", "19x19"], 2, "at most 18x18"),
    (None, ["--seed", "x"], 2, "--seed must be a whole number"),
    ("#.\n", ["--seed", "1"], 2, "not both"),
])
def test_practice_refusals(run_cli, tmp_path, grid, args, code, message):
    if grid is not None:
        (tmp_path / "b.txt").write_text(grid)
        args = [str(tmp_path / "b.txt"), *args]
    res = run_cli(["practice", *args], input="")
    assert res.returncode == code, (res.stdout, res.stderr)
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_practice_from_a_file_over_a_pipe(run_cli, tmp_path):
    (tmp_path / "b.txt").write_text("#.#\n.#.\n#.#\n")
    res = run_cli(["practice", str(tmp_path / "b.txt")], input="hint\nB2\nquit\n")
    assert res.returncode == 0, res.stderr
    assert "Turn every light off in as few clicks as you can: 9 will do." in res.stdout
    assert "Left after 1 move with" in res.stdout


def test_readme_example(run_cli):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    res = run_cli(["practice", "--seed", "5", "--size", "3x3"], input="hint\nC1\nquit\n")
    shown = "\n".join(line.rstrip() for line in res.stdout.splitlines())
    assert f"$ printf 'hint\\nC1\\nquit\\n' | countlo practice --seed 5 --size 3x3\n{shown}\n```" \
        in readme


def test_backwards_clicks_redo_restart_and_the_overlay_under_k_states():
    from countlo.rules import Rules
    from countlo.visible import solutions as answers

    shape = Shape(3, 3, Rules.make("torus", "plus", 3))
    start = answers.apply(shape, [0] * 9, [1, 0, 2, 0, 1, 0, 0, 0, 1])
    target = [0] * 9
    game = Practice(shape, [(-v) % 3 for v in start], target)
    first = list(game.lights)
    game.click(4)
    game.click(4, backwards=True)
    assert game.lights == first and game.moves == 2
    game.click(0, backwards=True)
    after = list(game.lights)
    assert game.undo() == 0 and game.lights == first
    assert game.redo() == 0 and game.lights == after and game.redo() is None
    game.undo()
    game.click(1)
    assert game.redo() is None  # a new click forgets what undo took back
    # the overlay is a fewest-press solution from wherever the player is
    for _ in range(3):
        overlay = game.solution()
        assert answers.apply(shape, game.lights, overlay) == target and sum(overlay) == game.to_go()
        game.click(game.hint() or 0)
    game.restart()
    assert game.lights == game.start and game.moves == 0 and game.redo() is None


def test_the_session_on_holes_graphs_and_k_states():
    """A hole cannot be clicked; a graph's nodes are clicked by name (a one-letter node before
    the one-letter commands); -C3 clicks backwards; redo, restart and new; the overlay is the
    fewest clicks from wherever the player is."""
    from countlo.formats.states import parse_graph, parse_graph_state
    from countlo.pressmap import holed
    from countlo.rules import Rules

    holey = holed(Shape(3, 3), [2, 8])
    s = PracticeSession(Practice(holey, [1, 0, 0, 1, 0, 1, 0]))
    assert "C1 is a hole" in plain(s.handle("C1")) and s.game.moves == 0
    assert " x " in plain(s.picture()).splitlines()[1]
    graph = parse_graph("a b\nb c\nc d\nd a\n")
    g = PracticeSession(Practice(graph, parse_graph_state("a b", graph)))
    assert g.parse("b") == ("click", 1) and g.parse("board") == ("board", None)
    g.handle("solution")
    for _ in range(3):
        if g.over:
            break
        plan = g.game.solution()
        marked = [line.split()[0] for line in plain(g.picture()).splitlines() if "(" in line]
        assert marked == [graph.nodes[j] for j, v in enumerate(plan) if v]
        g.handle(graph.nodes[g.game.hint()])
    assert g.over
    k3 = Shape(2, 3, Rules.make("torus", "plus", 3))
    drawn = iter(range(1000))
    t = PracticeSession(Practice(k3, [1, 2, 0, 0, 1, 2]),
                        new_game=lambda: (Practice(k3, [2, 2, 2, 0, 0, 0]), f"seed {next(drawn)}"))
    before = list(t.game.lights)
    t.handle("-B1")
    t.handle("undo")
    assert t.game.lights == before and "redo B1" in plain(t.handle("redo"))
    t.handle("restart")
    assert t.game.lights == before and t.game.moves == 0
    assert "seed 0" in plain(t.handle("new")) and t.game.lights == [2, 2, 2, 0, 0, 0]
    two = PracticeSession(Practice(Shape(3, 3), [1, 1, 0, 1, 0, 0, 0, 0, 0]))
    assert "same click" in plain(two.handle("-A1"))
    assert "came from a file" in plain(two.handle("new"))


def test_practice_from_a_file_with_target_dark_aims_at_dark(run_cli, tmp_path):
    """--target dark on a start from FILE is the all-dark goal (it once read as all lit)."""
    start = tmp_path / "s.txt"
    start.write_text("#.#\n.#.\n#.#\n", encoding="utf-8")
    res = run_cli(["practice", str(start), "--target", "dark", "--plain"], input="quit\n")
    assert res.returncode == 0 and "Turn every light off" in res.stdout
    assert "5 lights on" in res.stdout
