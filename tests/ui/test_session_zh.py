"""The guided session in Chinese, in-process: a whole typed game and a simulated one reach 0 with
every sentence in Chinese (cell names, commands and option names stay as typed), mistakes are
explained in Chinese, and the transcript is written exactly as in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from countlo import i18n
from countlo.board import Shape
from countlo.formats.transcript import Header, Writer, load
from countlo.hidden.record import possible_after
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.ui.picture import plain
from countlo.ui.session import Session
from countlo.ui.wording import amount, boards, clicks

SIX = Shape(6, 6)

# Words that stay as they are in every language: commands the player types, key names, strategy
# and engine names, the program's name.
KEPT = {"countlo", "play", "resume", "adaptive", "exact", "help", "undo", "fix", "history",
        "board", "quit", "Esc", "Enter", "Tab", "Ctrl", "nn", "restart", "lang", "zh"}
ENGLISH_WORD = re.compile(r"(?<![A-Za-z/.-])[A-Za-z]{2,}(?![A-Za-z/.-])")


def english_left(text: str, *typed: str) -> list[str]:
    """English words in `text` that are not cell names, what the player `typed`, or the words
    kept above."""
    for t in typed:
        text = text.replace(t, "")
    words = ENGLISH_WORD.findall(text)
    return [w for w in words if w not in KEPT and not re.fullmatch(r"[A-Z]{1,2}", w)]


@pytest.fixture
def zh():
    with i18n.speaking("zh"):
        yield


def writer_at(path: Path, shape: Shape = SIX) -> Writer:
    return Writer.create(str(path), Header.new(shape, "adaptive", None, "exact"))


def test_a_typed_game_in_chinese_reaches_zero(zh, tmp_path):
    game = SimulatedOracle(SIX, 5)
    path = tmp_path / "t.txt"
    session = Session(Guide(SIX), writer=writer_at(path), where=str(path))
    shown = plain(session.greeting()) + plain(session.prompt(status=True))
    shown += plain(session.handle(str(game.start())))
    shown += plain(session.handle("xyz")) + (session.check("99") or "")
    shown += plain(session.handle("help")) + plain(session.handle("board"))
    while not session.over:
        shown += plain(session.prompt(status=True))
        shown += plain(session.handle(str(game.click(session.target()))))
    assert game.lights == 0 and session.guide.done
    assert "按回车点击" not in shown  # the real game's wording, not the simulated one's
    for said in ("每次点击后输入游戏显示的亮灯数", "游戏显示的初始亮灯数", "点击", "后的亮灯数",
                 "不是亮灯数、格子（如 C4）或命令", "盘面图和图例", "完成：", "符合预期", "记录文件："):
        assert said in shown, said
    assert english_left(shown, str(tmp_path), "'xyz'") == []
    record = load(str(path)).record
    assert record.count == 0 and record.consistent(game.board)


def test_a_simulated_game_in_chinese_and_leaving_early(zh, tmp_path):
    path = tmp_path / "t.txt"
    session = Session(Guide(SIX), writer=writer_at(path), oracle=SimulatedOracle(SIX, 2),
                      where=str(path), label=i18n._("simulated game, seed {seed}").format(seed=2))
    shown = plain(session.greeting()) + plain(session.prompt(status=True))
    shown += plain(session.handle("")) + plain(session.handle("undo"))
    shown += plain(session.handle("4"))  # the simulated game gives the counts itself
    shown += plain(session.handle("fix 1 3")) + plain(session.handle("history"))
    left = plain(session.leave())  # no click kept: no file, no resume hint (issue 26, item 9)
    assert "0 次点击后退出" in left and "没有保留记录" in left and "--resume" not in left
    session.over = False
    shown += plain(session.handle("")) + plain(session.leave())
    for said in ("模拟游戏，种子 2", "模拟游戏开始时有", "按回车点击", "撤销：已取消",
                 "模拟游戏会自己给出亮灯数", "模拟游戏的亮灯数不会错", "1 次点击后退出",
                 "之后接着玩：", "countlo play --lang zh --resume"):
        assert said in shown, said
    assert english_left(shown, str(tmp_path)) == []


def test_a_question_about_a_count_is_asked_in_chinese_and_noted_in_english(zh, tmp_path):
    """A finishing count that does not fit: the question, its answers and the correction read
    in Chinese; the transcript (shared with players of any language) keeps an English note."""
    game = SimulatedOracle(SIX, 1)
    path = tmp_path / "q.txt"
    session = Session(Guide(SIX), writer=writer_at(path), where=str(path))
    session.handle(str(game.start()))
    while session.advice().phase == "probe":
        session.handle(str(game.click(session.target())))
    advice = session.advice()
    real = game.click(advice.cell)
    wrong = next(c for c in possible_after(SIX, advice.cell, session.guide.record.count)
                 if c not in (real, 0) and abs(c - real) == 2)
    shown = plain(session.handle(str(wrong))) + plain(session.prompt(status=True))
    assert "对不上" in shown and "吗？" in shown
    shown += plain(session.handle(str(real)))
    assert "已更正" in shown
    assert english_left(shown, str(tmp_path)) == []
    text = path.read_text(encoding="utf-8")
    assert "# Corrected:" in text and not re.search(r"[\u4e00-\u9fff]", text)


def test_numbers_read_the_chinese_way(zh):
    assert amount(1234) == "1,234"
    assert amount(2_500_000) == "250.0万"
    assert amount(9_100_000_000) == "91.0亿"
    assert boards(1) == "1 种盘面" and clicks(3) == "3 次点击"


def test_english_stays_the_default():
    assert i18n.language() == "en"
    assert boards(1) == "1 board" and boards(2_500_000) == "2.5 million boards"
    assert clicks(1) == "1 click" and clicks(2) == "2 clicks"
