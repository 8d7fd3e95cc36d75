"""Counts of boards that are not exact are said so: "about" for the frontier engine's estimate
past ~2^100 boards (docs/MATH.md §22), "at least" for an engine that stops counting; the counts
the prompt accepts stay exact (the true count is always among them)."""

from __future__ import annotations

from countlo.board import Shape
from countlo.play.advice import Tally
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.ui.picture import plain
from countlo.ui.session import Session
from countlo.ui.wording import amount, boards, many

BIG = Shape(12, 12)  # C(144, 72) ~ 2^139 boards at the start: beyond the exact count


def test_a_big_board_says_about_until_its_count_is_exact_again():
    game = SimulatedOracle(BIG, 3)
    session = Session(Guide(BIG), oracle=game)
    assert session.progress().tally is Tally.ABOUT
    assert "about " in plain(session.toolbar()) and " boards left" in plain(session.toolbar())
    log = ""
    while session.progress().tally is Tally.ABOUT:
        cell = session.target()
        accepted = session.accepted(cell)
        log += plain(session.handle(""))  # a simulated game: Enter clicks the advised cell
        assert session.guide.record.steps[-1].count in accepted  # never refuses the true count
        assert len(session.guide.record.steps) < 60
    assert "about " in log and " boards left" in log  # the log said it while it was an estimate
    p = session.progress()
    assert p.tally is Tally.EXACT and 2**62 < p.possible < 2**120  # exact again, still far from known
    assert "about" not in plain(session.toolbar())
    assert session.guide.knowledge().posterior.count_exact


def test_six_by_six_counts_are_exact_and_say_no_about():
    session = Session(Guide(Shape(6, 6)), oracle=SimulatedOracle(Shape(6, 6), 1))
    log = plain(session.handle("")) + plain(session.handle(""))
    assert session.progress().tally is Tally.EXACT
    assert "about" not in log + plain(session.toolbar()) and "at least" not in log


def test_an_engine_that_stops_counting_says_at_least():
    guide = Guide(Shape(6, 6), engine="linear")
    guide.start(18)
    p = guide.progress()
    assert p.tally is Tally.AT_LEAST and p.possible == 256  # linear counts 256 starts, then stops
    session = Session(guide)
    assert "at least 256 boards left" in plain(session.toolbar())
    advice = guide.advice()
    assert advice.tally is Tally.AT_LEAST


def test_the_words_for_counts():
    assert boards(2**252, Tally.ABOUT) == "about 7.2e75 boards"
    assert boards(300, Tally.AT_LEAST) == "at least 300 boards" and many(1024) == "1,024 boards"
    assert amount(10**15) == "1.0e15" and amount(999 * 10**12) == "999.0 trillion"
    assert amount(2**1000).startswith("1.0e301")


def test_replay_says_at_least_for_a_count_beyond_the_exact_one(run_cli, tmp_path):
    tape = tmp_path / "wide.txt"
    tape.write_text("# countlo transcript 1\n# size: 10x40\n\nstart 200\nE5 199\n")
    r = run_cli(["replay", str(tape), "--engine", "exact", "--explain"])
    assert r.returncode == 0, r.stderr
    assert "Not determined yet: at least " in r.stdout
    walk = [line for line in r.stdout.splitlines() if " start " in line or " E5 " in line]
    assert len(walk) == 2 and all(line.endswith("+") for line in walk)  # boards left: a lower bound
