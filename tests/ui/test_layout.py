"""Narrow terminals (issue 11, item 12): words are never split, the status bar keeps whole parts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.ui.layout import MIN_WIDTH, bar, fit, narrow_note, pack


def text(fragments) -> str:
    return "".join(t for _, t in fragments)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text("abcdefghij·0123456789,./", min_size=1, max_size=12), max_size=40),
       width=st.integers(20, 100), lead=st.sampled_from(["", "  ", "      "]))
def test_fit_keeps_lines_within_the_width_and_every_word_whole(words, width, lead):
    got = text(fit([("s", lead + " ".join(words) + "\n")], width))
    lines = got.split("\n")
    assert all(len(line) <= width for line in lines)
    assert got.split() == " ".join(words).split()  # same words, none split or joined


def test_fit_breaks_a_greeting_at_60_and_40_columns_between_words():
    greeting = "countlo play: 6x6 board, adaptive strategy, exact engine, simulated game, seed 1\n"
    for width in (60, 40):
        got = text(fit([("", greeting)], width))
        assert "simulated" in got.split() and max(map(len, got.split("\n"))) <= width


def test_fit_keeps_styles_and_leaves_short_lines_alone():
    frags = [("a", "Click "), ("b", "C4"), ("a", "; the count should become 9.\n")]
    assert fit(frags, 80) == frags


def test_the_status_bar_keeps_whole_parts_most_important_first():
    parts = ["6 clicks", "636,888 boards left", "16.7 of 36 bits known", "adaptive", "F2 undo"]
    assert bar(parts, 80) == " " + " · ".join(parts) + " "
    assert bar(parts, 60) == " 6 clicks · 636,888 boards left · 16.7 of 36 bits known "
    assert bar(parts, 40) == " 6 clicks · 636,888 boards left "


def test_below_the_minimum_width_it_says_so():
    assert narrow_note(80, 30) is None
    assert narrow_note(MIN_WIDTH, 30) is None
    for width in (39, 30, 20):  # one line whatever the width
        note = narrow_note(width, 30)
        assert note is not None and f"{MIN_WIDTH} columns" in note and len(note) <= width
    assert narrow_note(42, 43) == "Too narrow: 43 columns needed."  # a 10x10 board needs 43
    assert narrow_note(100, 99) is None


def test_fit_breaks_a_path_longer_than_the_line_after_a_slash():
    path = "/tmp/pytest-of-someone/pytest-12/test_a_long_name0/countlo/2026-11-23-223142-6x6-sim.txt"
    got = text(fit([("", f"Transcript: {path}\n")], 40)).split("\n")
    assert all(len(line) <= 40 for line in got)
    assert "".join(got) == f"Transcript: {path}" and all(line.endswith("/") for line in got[:-2])


def test_fit_continues_a_two_column_line_under_its_second_column():
    help_line = "  undo      take back the last click (F2 or Esc u does the same)\n"
    got = text(fit([("", help_line)], 40)).split("\n")
    assert got[0] == "  undo      take back the last click (F2"
    assert got[1] == "            or Esc u does the same)"


def test_pack_sets_whole_items_on_as_few_lines_as_fit():
    items = [[("a", "## lit")], [("b", ".. dark")], [("c", "nn % chance lit")], [("d", "[  ] click this")]]
    assert text(pack(items, 80)) == "## lit   .. dark   nn % chance lit   [  ] click this\n"
    assert text(pack(items, 40)) == "## lit   .. dark   nn % chance lit\n[  ] click this\n"
    assert text(pack(items, 20)) == "## lit   .. dark\nnn % chance lit\n[  ] click this\n"


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from(["亮灯数", "点击", "盘面，", "格子。", "（C4）", "ab", "12", " ", "· "]),
                     max_size=40),
       width=st.integers(20, 80))
def test_fit_measures_chinese_in_terminal_columns_and_breaks_between_characters(words, width):
    from countlo.i18n import NO_BREAK_BEFORE
    from countlo.i18n import width as columns

    source = "".join(words)
    got = text(fit([("s", source + "\n")], width))
    lines = got.split("\n")
    assert all(columns(line) <= width for line in lines)  # a Chinese character takes two columns
    assert got.replace("\n", "").replace(" ", "") == source.replace(" ", "")  # nothing lost
    assert not any(line[:1] in NO_BREAK_BEFORE for line in lines[1:] if line)


def test_the_status_bar_keeps_whole_chinese_parts_in_columns():
    from countlo.i18n import width as columns

    parts = ["3 次点击", "剩 7.1亿 种盘面", "36 位中已知 6.6 位", "adaptive", "F2 撤销"]
    for width in range(12, 70):
        shown = bar(parts, width)
        assert columns(shown) <= width
        assert all(p in parts for p in shown.strip().split(" · ") if p)
