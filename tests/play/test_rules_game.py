"""The hidden game under other rules: engines against brute force, games to the end through the
CLI (torus, x rule, lit target), transcripts that carry the rules, and refusals."""

from __future__ import annotations

import json

import pytest
from brute import BrutePosterior, random_records

from countlo.board import Shape
from countlo.cli import main
from countlo.formats.transcript import Header, read
from countlo.hidden.posterior.sampler import RowSampler, fits
from countlo.hidden.posterior.window import WindowPosterior
from countlo.hidden.rebuild import reconstruct
from countlo.play.game import play_game
from countlo.play.oracle import SimulatedOracle
from countlo.play.strategies.routine import brute_determines, determines, routine
from countlo.rules import Rule, Rules
from countlo.visible import bitsets

BOARDS = [("torus", "plus", 3, 4), ("torus", "x", 4, 3), ("plane", "x", 3, 4),
          ("cylinder", "plus", 3, 4), ("moebius", "star", 4, 3), ("plane", "knight", 3, 3),
          ("klein", "plus", 3, 3), ("projective", "ring", 3, 4)]


def records(shape: Shape, n: int, seed: int):
    return random_records(shape, n, seed, 6)


@pytest.mark.parametrize("topology, rule, rows, cols", BOARDS)
def test_exact_posterior_matches_brute_force(topology, rule, rows, cols):
    shape = Shape(rows, cols, Rules.make(topology, rule))
    for rec in records(shape, 4, rows * cols):
        post, brute = WindowPosterior(rec), BrutePosterior(rec)
        assert post.count == brute.count
        assert max(abs(a - b) for a, b in zip(post.light_marginals(),
                                              brute.light_marginals())) < 1e-9
        for cell in range(shape.cells):
            got = {c: w for c, w in post.count_distribution(cell).items() if w}
            want = {c: w for c, w in brute.count_distribution(cell).items() if w}
            assert got == want


@pytest.mark.parametrize("engine", ["linear", "z3"])
@pytest.mark.parametrize("topology, rule, rows, cols", BOARDS[:4])
def test_linear_and_z3_engines_work_from_the_press_masks(engine, topology, rule, rows, cols):
    shape = Shape(rows, cols, Rules.make(topology, rule))
    for rec in records(shape, 3, 7):
        brute = BrutePosterior(rec)
        r = reconstruct(rec, engine)
        if brute.count == 1:
            assert r.board == brute.starts[0]
        else:
            assert r.board is None and (r.possible == brute.count or not r.possible_exact)


@pytest.mark.parametrize("topology, rule, rows, cols", [("plane", "x", 4, 4),
                                                         ("cylinder", "plus", 4, 3),
                                                         ("cylinder", "star", 3, 4),
                                                         ("plane", "ring", 3, 5)])
def test_row_sampler_lists_exactly_the_consistent_starts(topology, rule, rows, cols):
    shape = Shape(rows, cols, Rules.make(topology, rule))
    assert fits(shape)
    for rec in records(shape, 3, 11):
        brute = BrutePosterior(rec)
        listed = RowSampler(rec).boards(brute.count)
        got = sorted(sum(int(v) << j for j, v in enumerate(row)) for row in listed)
        assert got == sorted(brute.starts)


def test_row_sampler_refuses_rules_that_reach_further():
    assert not fits(Shape(4, 4, Rules.make("torus")))
    assert not fits(Shape(4, 4, Rules.make("plane", "knight")))


def test_routines_under_other_rules_are_verified_or_plainly_refused():
    small = Shape(4, 4, Rules.make("torus"))
    r = routine(small)
    assert r.verified and brute_determines(small, r.cells)
    x = Shape(6, 6, Rules.make("plane", "x"))
    r = routine(x)
    assert r.verified and determines(x, r.cells)
    far = Shape(6, 6, Rules.make("torus"))
    r = routine(far)
    assert not r.verified and "no fixed routine" in r.note


def test_lit_target_press_sets_reach_all_lit():
    shape = Shape(3, 3, Rules.make("torus", "x", 2, "lit"))
    assert shape.goal == shape.full and shape.goal_count == 9
    for board in range(1 << 9):
        sol = bitsets.solve(shape, board, shape.goal)
        if sol.solvable:
            assert shape.press_all(board, sol.presses) == shape.full


@pytest.mark.parametrize("rules", [Rules.make("torus"), Rules.make("plane", "x"),
                                   Rules.make("plane", "plus", 2, "lit"),
                                   Rules("plane", Rule.from_text("O#\n#.\n"))])
def test_games_end_solved_or_proved_unclearable(rules):
    shape = Shape(4, 4, rules)
    for seed in range(4):
        oracle = SimulatedOracle(shape, seed)
        result = play_game(oracle, "adaptive", "exact", seed)
        assert result.correct, result.reason
        if result.solved:
            assert oracle.lights == shape.goal
        else:
            assert not bitsets.solve(shape, oracle.lights, shape.goal).solvable


@pytest.mark.parametrize("options", [["--topology", "torus"], ["--rule", "x"],
                                     ["--target", "lit"]])
def test_simulate_plays_to_the_end_through_the_cli(capsys, options):
    code = main(["simulate", "--size", "5x5", "--games", "4", "--json", *options])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["failed"] == 0 and out["solved"] + out["unsolvable"] == 4
    shape = Shape(5, 5, Rules.make(*(["torus"] if "torus" in options else ["plane"]),
                                   "x" if "x" in options else "plus", 2,
                                   "lit" if "lit" in options else "dark"))
    for rec in out["records"]:
        if rec["outcome"] == "solved":
            hidden = sum(v << (r * 5 + c) for r, row in enumerate(rec["start"]) for c, v in enumerate(row))
            lights = hidden
            for (row, col), _ in rec["steps"]:
                lights = shape.press(lights, (row - 1) * 5 + col - 1)
            assert lights == shape.goal


def test_transcripts_carry_the_rules_and_replay_rebuilds_the_game(tmp_path, capsys):
    shape = Shape(4, 4, Rules.make("torus", Rule.from_text("O#\n#.\n"), 2, "lit"))
    oracle = SimulatedOracle(shape, 3)
    lines = Header.new(shape, "fixed", 3, "exact").lines() + ["", f"start {oracle.start()}"]
    for k in (0, 5, 10, 15, 3):
        lines.append(f"{shape.name(k)} {oracle.click(k)}")
    text = "\n".join(lines) + "\n"
    assert "# topology: torus" in text and "# rule: mask 0:0 0:1 1:0" in text
    assert "# target: lit" in text
    t = read(text)
    assert t.record.shape == shape
    f = tmp_path / "t.txt"
    f.write_text(text)
    assert main(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["possible"] == BrutePosterior(t.record).count
    assert main(["replay", str(f), "--topology", "plane"]) == 2
    assert "is played under torus, mask rule, target lit" in capsys.readouterr().err


def test_a_refused_replay_names_the_target_the_options_ask_for(tmp_path, capsys):
    """Leaving out --target asks for the dark target: the refusal must say so, or it reads
    'played under torus, x rule, target lit, not torus, x rule'."""
    shape = Shape(4, 4, Rules.make("torus", "x", 2, "lit"))
    oracle = SimulatedOracle(shape, 1)
    lines = Header.new(shape, "adaptive", 1, "exact").lines() + ["", f"start {oracle.start()}"]
    f = tmp_path / "t.txt"
    f.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(f), "--topology", "torus", "--rule", "x"]) == 2
    err = capsys.readouterr().err
    assert "is played under torus, x rule, target lit, not torus, x rule, target dark" in err
    assert len(err.strip().splitlines()) == 1


def test_version_one_transcripts_read_as_the_classic_game_and_take_rule_options(tmp_path, capsys):
    shape = Shape(3, 3, Rules.make("torus"))
    oracle = SimulatedOracle(shape, 1)
    lines = ["# countlo transcript 1", "# size: 3x3", "", f"start {oracle.start()}"]
    for k in (4, 0):
        lines.append(f"{shape.name(k)} {oracle.click(k)}")
    f = tmp_path / "v1.txt"
    f.write_text("\n".join(lines) + "\n")
    assert read(f.read_text()).record.shape == Shape(3, 3)
    assert main(["replay", str(f), "--topology", "torus", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rec = read(f.read_text()).record
    from countlo.hidden.record import Record
    assert out["possible"] == BrutePosterior(Record(shape, rec.start, rec.steps)).count


def test_an_unclearable_game_does_not_say_no_click_fits(run_cli, tmp_path):
    """On a 2x2 board under the x rule most starts cannot be cleared; the counts still fit four
    boards, so the game must not be answered 'no click fits the counts so far'."""
    res = run_cli(["play", "--sim", "--seed", "2", "--plain", "--size", "2x2", "--rule", "x",
                   "--transcript", str(tmp_path / "t.txt")], input="\n\n\n")
    assert res.returncode == 1, res.stderr  # not a win: exit 1, as replay and solve exit for it
    assert "None of the 4 boards still possible can be cleared" in res.stdout
    assert "no click fits the counts so far" not in res.stdout
    # a simulated game has no typos to undo: it ends with the proof (issue 26, item 9)
    assert "The simulated game ends here: no clicks can clear these lights." in res.stdout


def test_replay_of_an_unclearable_ambiguous_game_says_clicking_cannot_help(run_cli, tmp_path):
    """play says none of the boards left can be cleared; replay of the same transcript said
    'Click more cells to pin it down', which cannot help (clicks keep that parity)."""
    t = tmp_path / "t.txt"
    run_cli(["play", "--sim", "--seed", "2", "--plain", "--size", "2x2", "--rule", "x", "--transcript", str(t)],
            input="\n")
    res = run_cli(["replay", str(t)])
    assert res.returncode == 1, res.stderr  # no click can clear it: as solve exits for an unsolvable board
    assert "Not determined yet: 4 boards fit these counts." in res.stdout
    assert "Click more cells" not in res.stdout
    assert "None of them can be cleared, whatever is clicked: clicking more cannot help." in res.stdout
    out = json.loads(run_cli(["replay", str(t), "--json"]).stdout)
    assert out["status"] == "ambiguous" and out["clearable"] is False
    shape = Shape(2, 2, Rules.make("plane", "x"))
    q = sum(1 << (r * 2 + c) for r, row in enumerate(out["quiet_pattern"]) for c, v in enumerate(row) if v)
    assert all((q & m).bit_count() % 2 == 0 for m in (shape.press(0, k) for k in range(4)))
    from countlo.formats.transcript import read
    rec = read(t.read_text()).record
    assert all((q & b).bit_count() % 2 == 1 for b in BrutePosterior(rec).starts)


def test_replay_json_names_the_rules(tmp_path, capsys):
    """Without them a torus game's JSON read exactly like a plane one's (solve --json names them)."""
    shape = Shape(4, 4, Rules.make("torus", "x", 2, "lit"))
    oracle = SimulatedOracle(shape, 2)
    lines = Header.new(shape, "adaptive", 2, "exact").lines() + ["", f"start {oracle.start()}"]
    f = tmp_path / "t.txt"
    f.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["topology"], out["rule"], out["target"]) == ("torus", "x", "lit")
    assert main(["replay", "transcripts/rows-6x6.txt", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["topology"], out["rule"], out["target"]) == ("plane", "plus", "dark")


def test_rule_options_apply_before_the_counts_are_checked(tmp_path, capsys):
    """A version-1 transcript of a torus game can hold counts the plane cannot show (an edge
    click there changes the count by an even number): `--topology torus` must replay it as the
    torus game, not report the plane's contradiction."""
    from countlo.hidden.record import Record, Step

    shape = Shape(4, 4, Rules.make("torus"))
    oracle = SimulatedOracle(shape, 5)
    lines = ["# countlo transcript 1", "# size: 4x4", "", f"start {oracle.start()}"]
    for k in (1, 2, 4, 8, 0, 5):
        lines.append(f"{shape.name(k)} {oracle.click(k)}")
    f = tmp_path / "v1.txt"
    f.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(f)]) == 1  # on the plane the counts are contradictory
    capsys.readouterr()
    assert main(["replay", str(f), "--topology", "torus", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    start = int(lines[3].split()[1])
    steps = [(shape.parse_cell(ln.split()[0]), int(ln.split()[1])) for ln in lines[4:]]
    assert out["possible"] == BrutePosterior(Record(shape, start, tuple(Step(c, n) for c, n in steps))).count
    # counts the plane shows but the torus cannot: the contradiction report with its typo, exit 1
    plane = Shape(4, 4)
    oracle = SimulatedOracle(plane, 5)
    lines = ["# countlo transcript 1", "# size: 4x4", "", f"start {oracle.start()}"]
    for k in (1, 2, 4, 8):
        lines.append(f"{plane.name(k)} {oracle.click(k)}")
    f.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(f)]) == 0
    capsys.readouterr()
    assert main(["replay", str(f), "--topology", "torus"]) == 1
    res = capsys.readouterr()
    assert res.err == "" and "Contradictory: no 4x4 board shows these counts." in res.out
    assert "4x4 board (torus, plus rule)" in res.out


@pytest.mark.parametrize("args, needle", [
    (["simulate", "--states", "3"], "the hidden game needs two states"),
    (["simulate", "--rule", "hexagon"], "unknown click rule 'hexagon'"),
    (["simulate", "--topology", "sphere"], "unknown topology 'sphere'"),
    (["play", "--sim", "--states", "4", "--transcript", "/dev/null"], "needs two states"),
    (["simulate", "--rule", "knight", "--size", "7x7", "--games", "1"], "would hold 31 cells at once"),
    (["simulate", "--rule", "rowcol", "--size", "7x7", "--games", "1"], "the clicks reach too far"),
])
def test_bad_rule_options_are_one_line(capsys, args, needle):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1


def test_bad_rules_in_a_transcript_header_name_the_line():
    from countlo.errors import TranscriptError

    with pytest.raises(TranscriptError, match=r":3: unknown click rule 'hexagon'"):
        read("# countlo transcript 1\n# size: 4x4\n# rule: hexagon\nstart 3\n")
