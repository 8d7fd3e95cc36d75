"""The guide's state machine, checked against brute force on boards small enough to list."""

from __future__ import annotations

import pytest
from brute import BrutePosterior, brute_diagnose, brute_fewest, brute_press_sets
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape, press_masks
from countlo.errors import BadCountError
from countlo.hidden.diagnose import Fix
from countlo.hidden.explain import StartAside
from countlo.hidden.record import Record, Step, possible_after, record_of
from countlo.hidden.result import UnknownEngineError
from countlo.play.advice import Doubt, Phase
from countlo.play.guide import Guide, GuideError, common_witness
from countlo.play.oracle import SimulatedOracle
from countlo.ui.wording import advice_text

S33, S23 = Shape(3, 3), Shape(2, 3)



def follow(guide: Guide, oracle: SimulatedOracle, limit: int = 100) -> None:
    """Click what the guide advises until it stops advising a cell."""
    for _ in range(limit):
        adv = guide.advice()
        if adv.cell is None:
            return
        guide.observe(adv.cell, oracle.click(adv.cell))
    raise AssertionError("guide did not stop")


def test_start_phase_and_bad_starting_counts():
    g = Guide(S33, "sequential")
    adv = g.advice()
    assert adv.phase == Phase.START and adv.possible == tuple(range(10))
    with pytest.raises(BadCountError):
        g.start(10)
    with pytest.raises(GuideError, match="starting count"):
        g.observe(0, 3)
    g.start(4)
    assert g.advice().phase == Phase.PROBE and not g.done


def test_probe_advice_lists_exactly_the_counts_some_consistent_board_shows():
    for start in range(0, 512, 37):
        g = Guide(S33, "adaptive", seed=start)
        oracle = SimulatedOracle(S33, board=start)
        g.start(oracle.start())
        while g.advice().phase == Phase.PROBE:
            adv = g.advice()
            post = BrutePosterior(g.record)
            assert adv.possible == tuple(sorted(post.count_distribution(adv.cell)))
            for cell in range(9):
                assert g.possible_counts(cell) == tuple(sorted(post.count_distribution(cell)))
            guide_marg = g.marginals()
            assert guide_marg == pytest.approx(post.light_marginals())
            g.observe(adv.cell, oracle.click(adv.cell))


@pytest.mark.parametrize("strategy", ["restore", "sequential", "fixed", "adaptive"])
def test_finish_plan_is_a_fewest_press_set_with_correct_counts_on_every_3x3_board(strategy):
    for start in range(512) if strategy != "adaptive" else range(0, 512, 5):
        g = Guide(S33, strategy, seed=start)
        oracle = SimulatedOracle(S33, board=start)
        g.start(oracle.start())
        while g.advice().phase == Phase.PROBE:
            adv = g.advice()
            g.observe(adv.cell, oracle.click(adv.cell))
        adv = g.advice()
        if oracle.lights == 0:
            assert adv.phase == Phase.DONE
            continue
        assert adv.phase == Phase.FINISH and g.known() == start
        lights = oracle.lights
        presses = sum(1 << c for c, _ in adv.plan)
        assert presses.bit_count() == len(adv.plan) == brute_fewest(S33, lights).bit_count()
        assert g.plan() == list(adv.plan)
        for cell, expected in adv.plan:
            assert g.advice().cell == cell and g.advice().expected == expected
            count = oracle.click(cell)
            assert count == expected
            g.observe(cell, count)
        assert oracle.lights == 0 and g.done and g.advice().phase == Phase.DONE


def test_unclearable_starts_are_stuck_with_a_quiet_pattern_witness():
    quiet = brute_press_sets(S23, 0)
    seen = 0
    for start in range(64):
        g = Guide(S23, "sequential")
        oracle = SimulatedOracle(S23, board=start)
        g.start(oracle.start())
        follow(g, oracle)
        adv = g.advice()
        lights = oracle.lights
        clearable = bool(brute_press_sets(S23, lights))
        if clearable:
            assert adv.phase in (Phase.FINISH, Phase.DONE)
            continue
        seen += 1
        assert adv.phase == Phase.STUCK and "be cleared" in advice_text(S23, adv)
        assert adv.unclearable
        if adv.witness is not None:  # a quiet pattern common to every start still possible
            assert adv.witness in quiet and (adv.witness & lights).bit_count() % 2 == 1
        else:  # stopped early: every start still possible is unclearable
            starts = g.knowledge().posterior.boards(64)
            assert start in starts and not any(brute_press_sets(S23, b) for b in starts)
    assert seen == 48  # nullity 2: three quarters of 2x3 boards cannot be cleared


def test_impossible_probe_count_is_refused_unless_forced_then_asked_about():
    g = Guide(S33, "sequential")
    g.start(1)
    g.observe(0, 4)  # the lit cell is outside N(A1)
    with pytest.raises(BadCountError) as e:  # clicking A1 back must restore the count 1
        g.observe(0, 3)
    assert e.value.possible == (1,)
    learned = g.observe(0, 3, force=True)
    # insisted on, 3 waits aside and is asked about: the start had 3 lit (set aside), nothing
    # is applied until the player says so
    expected = [f for f in brute_diagnose(Record(S33, 1, (Step(0, 4), Step(0, 3)))) if f[0] != 2]
    assert expected == [(0, 1, 3)]
    assert isinstance(learned.stuck, Doubt) and g.record.counts == [1, 4] and g.corrections == ()
    assert learned.stuck.suspects[0].mistake == StartAside(1, 3)  # other cells fit less well
    g.answer(StartAside(1, 3))
    assert g.record.counts == [3, 4, 3] and g.corrections[-1] == StartAside(1, 3)
    assert g.advice().phase == Phase.PROBE


def typo_scenarios(shape: Shape, strategy: str, limit: int):
    """Games where one count is mistyped yet accepted, and the guide reaches FINISH wrongly."""
    found = 0
    for start in range(1 << shape.cells):
        for typo_at in range(1, 6):
            g = Guide(shape, strategy)
            oracle = SimulatedOracle(shape, board=start)
            g.start(oracle.start())
            truth = None
            try:
                for step in range(1, 40):
                    adv = g.advice()
                    if adv.phase != Phase.PROBE:
                        break
                    count = oracle.click(adv.cell)
                    if step == typo_at:
                        wrong = [c for c in adv.possible if c != count]
                        if not wrong:
                            raise StopIteration
                        truth = (step, wrong[0], count)
                        count = wrong[0]
                    g.observe(adv.cell, count)
            except (StopIteration, BadCountError):
                continue
            if truth and g.advice().phase == Phase.FINISH and g.known() != start:
                yield g, oracle, truth
                found += 1
                if found >= limit:
                    return


def test_a_finishing_count_that_breaks_the_plan_asks_which_mistake_and_applies_none():
    """An earlier typo found while finishing: the count just read waits aside, the earlier typo
    is among the suspects, and nothing is applied until the player answers."""
    cases = 0
    for g, oracle, (step, written, real) in typo_scenarios(S33, "sequential", 25):
        cases += 1
        for _ in range(40):
            adv = g.advice()
            if adv.phase != Phase.FINISH:
                break
            before = g.record
            count = oracle.click(adv.cell)
            learned = g.observe(adv.cell, count)
            if count != adv.expected:
                assert isinstance(learned.stuck, Doubt) and g.record == before and g.corrections == ()
                mistakes = [s.mistake for s in learned.stuck.suspects]
                assert Fix(step, written, real) in mistakes
                g.answer(Fix(step, written, real))
                assert g.advice().phase != Phase.STUCK and g.record.counts[step] == real
                break
    assert cases >= 5


def test_a_mistyped_finishing_count_waits_aside_and_the_typed_count_is_a_suspect():
    """Issue 11 item 3, issue 26: every count agreed on the plan; the finishing count typed
    breaks it. Nothing is corrected unasked; the typed count's fix is a suspect, and saying it
    leaves every earlier count as it was."""
    checked = 0
    for start in range(0, 1 << 9, 7):
        g = Guide(S33, "sequential")
        oracle = SimulatedOracle(S33, board=start)
        g.start(oracle.start())
        for _ in range(40):  # probe until the plan is known
            adv = g.advice()
            if adv.phase != Phase.PROBE:
                break
            g.observe(adv.cell, oracle.click(adv.cell))
        if adv.phase != Phase.FINISH or len(adv.plan) < 2:
            continue
        real = oracle.click(adv.cell)
        wrong = [c for c in possible_after(S33, adv.cell, g.record.count) if c not in (real, 0)]
        if not wrong:
            continue
        before = list(g.record.counts)
        learned = g.observe(adv.cell, wrong[0])
        assert isinstance(learned.stuck, Doubt) and g.record.counts == before
        newest = Fix(len(before), wrong[0], real)
        assert newest in [s.mistake for s in learned.stuck.suspects]
        g.answer(newest)
        assert g.record.counts == before + [real]
        checked += 1
    assert checked >= 10


def test_undo_takes_back_the_last_step_and_its_state():
    g = Guide(S33, "sequential")
    oracle = SimulatedOracle(S33, board=0b110010011)
    g.start(oracle.start())
    assert g.undo() is None
    first = g.advice()
    g.observe(0, oracle.click(0))
    second = oracle.click(1)
    g.observe(1, second)
    p = g.progress()
    assert p.clicks == 2 and p.probes == 2
    assert g.undo() == Step(1, second)
    assert len(g.record.steps) == 1 and g.progress().probes == 1
    g.undo()
    assert g.record.steps == () and g.advice() == first
    assert g.undo() is None


def test_correct_replaces_a_count_and_checks_it():
    g = Guide(S33, "sequential")
    g.start(4)
    g.observe(0, 5)
    with pytest.raises(BadCountError):
        g.correct(1, 9)  # from 4 lit, A1 cannot give 9
    g.correct(1, 3)
    assert g.record.counts == [4, 3] and g.corrections[-1].suggested == 3
    with pytest.raises(GuideError):
        g.correct(5, 3)
    assert g.undo() == Step(0, 3)
    assert g.record.counts == [4, 5]


def test_progress_and_bits_known():
    g = Guide(S33, "sequential")
    p = g.progress()
    assert p.phase == Phase.START and p.possible == 512
    g.start(0)
    p = g.progress()
    assert p.possible == 1 and p.bits_known == 9 and p.phase == Phase.DONE
    g = Guide(S33, "sequential")
    g.start(1)
    assert g.progress().possible == 9
    assert g.progress().bits_known == pytest.approx(9 - 3.169925, abs=1e-5)


def test_resume_from_a_record_counts_the_probes_that_found_the_board():
    start = 0b011010110
    record = record_of(S33, start, list(range(9)))
    known_after = next(n for n in range(10) if BrutePosterior(record.prefix(n)).count == 1)
    g = Guide.from_record(record, "sequential")
    assert g.known() == start and g.probes == known_after and g.record == record
    assert g.advice().phase in (Phase.FINISH, Phase.DONE)


def test_the_click_bound_stops_a_game_that_never_ends():
    g = Guide(S33, "manual", max_clicks=6)
    g.start(5)
    oracle = SimulatedOracle(S33, board=0b11111)
    for _ in range(6):
        g.observe(4, oracle.click(4), force=True)
    adv = g.advice()
    assert adv.phase == Phase.STUCK and "Gave up after 6 clicks" in advice_text(S33, adv)


def test_unknown_engine_is_refused():
    with pytest.raises(UnknownEngineError, match="unknown engine 'magic'"):
        Guide(S33, "sequential", engine="magic")


def test_clicks_commute_so_the_plan_starts_from_the_lights_now():
    start = 0b101000101
    g = Guide(S33, "sequential")
    oracle = SimulatedOracle(S33, board=start)
    g.start(oracle.start())
    follow(g, oracle)
    lights = start
    for s in g.record.steps:
        lights ^= press_masks(S33)[s.cell]
    assert oracle.lights == lights
    if g.advice().phase == Phase.FINISH:
        presses = sum(1 << c for c, _ in g.plan())
        b = lights
        for c, _ in g.plan():
            b ^= press_masks(S33)[c]
        assert b == 0 and presses == brute_fewest(S33, lights)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([Shape(2, 3), Shape(4, 4), Shape(5, 5), Shape(1, 5)]), st.data())
def test_common_witness_is_exactly_a_quiet_pattern_meeting_every_start_oddly(shape, data):
    from countlo.visible.engines.polynomial_chase import quiet_patterns

    quiet = quiet_patterns(shape)
    starts = data.draw(st.lists(st.integers(0, shape.full), min_size=1, max_size=6))
    q = common_witness(quiet, starts)
    span = [0]
    for b in quiet:
        span += [x ^ b for x in span]
    good = [x for x in span if all((x & b).bit_count() % 2 for b in starts)]
    if q is None:
        assert good == []
    else:
        assert q in span and q in good


def test_probing_stops_once_no_possible_start_can_be_cleared():
    """4x4 (nullity 4): the guide stops as soon as every start still possible is unclearable."""
    from countlo.visible.engines.polynomial_chase import solve

    shape = Shape(4, 4)
    early = with_common = 0
    for seed in range(30):
        oracle = SimulatedOracle(shape, seed)
        g = Guide(shape, "sequential")
        g.start(oracle.start())
        follow(g, oracle)
        adv = g.advice()
        if adv.phase == Phase.STUCK:
            assert adv.unclearable and not solve(shape, oracle.lights).solvable
            if adv.witness is not None:
                assert (adv.witness & oracle.lights).bit_count() % 2 == 1
                with_common += 1
            if g.known() is None:
                early += 1
                starts = g.knowledge().posterior.boards(10**4)
                assert oracle.board in starts
                assert not any(solve(shape, b).solvable for b in starts)
        else:
            assert adv.phase in (Phase.FINISH, Phase.DONE)
    assert early > 0 and with_common > 0


def test_a_start_with_no_clearable_board_left_is_stuck_at_once():
    """4x4 starting with one light: all 16 such boards are unclearable, with no common witness."""
    shape = Shape(4, 4)
    g = Guide(shape, "adaptive")
    g.start(1)
    adv = g.advice()
    assert adv.phase == Phase.STUCK and adv.unclearable and adv.witness is None
    assert "None of the 16 boards still possible can be cleared" in advice_text(shape, adv)


def test_a_finished_guide_is_freed_without_the_cyclic_collector():
    """Its Knowledge objects call back into its posterior cache: a strong reference made guide and
    knowledge a cycle, and a simulate run kept several finished games' tables at once."""
    import gc
    import weakref

    oracle = SimulatedOracle(Shape(4, 4), 7)
    g = Guide(oracle.shape, "adaptive", counts=False)
    g.start(oracle.start())
    follow(g, oracle)
    assert g.knowledge().posterior.count >= 1  # the cache was used
    gone = weakref.ref(g)
    was = gc.isenabled()
    gc.disable()
    try:
        del g
        assert gone() is None
    finally:
        if was:
            gc.enable()


def test_suspects_no_click_tells_apart_are_listed_by_story():
    """Issue 26, item 4: when no count can tell suspects apart, five neighbours of one click
    (each less likely than a set-aside start, together much likelier) come first, grouped."""
    from countlo.hidden.explain import OtherCell, Suspect
    from countlo.play.guide import by_story

    others = [Suspect(OtherCell(2, 20, c), 0.13, 1) for c in (13, 15, 19, 25, 27)]
    start = Suspect(StartAside(20, 18), 0.21, 1)
    typo = Suspect(Fix(5, 10, 12), 0.05, 1)
    ranked = by_story([start, *others, typo])
    assert ranked == [*others, start, typo]
    assert by_story([start, typo]) == [start, typo]  # one suspect a story: the order as weighed
