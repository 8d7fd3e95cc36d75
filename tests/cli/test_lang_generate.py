"""generate and practice in Chinese: the comment lines generate prints and the refusals of both
commands are Chinese under --lang zh, the boards (and the JSON) the same as in English, and the
English words unchanged."""

from __future__ import annotations

import json
import re

import pytest

CJK = re.compile(r"[\u4e00-\u9fff]")


def grids(text: str) -> list[str]:
    """The lines that are not comments: the boards themselves."""
    return [line for line in text.splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("args, en_head, zh_head", [
    (["--size", "4x4", "--count", "2", "--presses", "3", "--seed", "1"],
     "# countlo generate: 2 4x4 boards, fewest presses 3, seed 1",
     "# countlo generate：2 个 4x4 盘面，最少 3 次点击，种子 1"),
    (["--size", "5x5", "--difficulty", "medium", "--seed", "7"],
     "# countlo generate: 1 5x5 board, medium, seed 7",
     "# countlo generate：1 个 5x5 盘面，medium，种子 7"),
    (["--size", "3x3", "--topology", "torus", "--states", "3", "--count", "2", "--seed", "2"],
     "# countlo generate: 2 3x3 boards (torus, plus rule, 3 states), uniform over the solvable boards; "
     "presses counted with multiplicity, seed 2",
     "# countlo generate：2 个 3x3 盘面（环面，plus 规则，3 种状态），在所有有解盘面中均匀抽取；点击按次数计，种子 2"),
])
def test_generate_comments_in_chinese_with_the_same_boards(run_cli, args, en_head, zh_head):
    en, zh = run_cli(["generate", *args]), run_cli(["--lang", "zh", "generate", *args])
    assert en.returncode == zh.returncode == 0 and en.stderr == zh.stderr == ""
    assert en.stdout.splitlines()[0] == en_head
    assert zh.stdout.splitlines()[0] == zh_head
    assert not CJK.search(en.stdout)
    fewest = re.findall(r"^# board (\d+): fewest presses (\d+)$", en.stdout, re.M)
    assert fewest and re.findall(r"^# 第 (\d+) 个盘面：最少 (\d+) 次点击$", zh.stdout, re.M) == fewest
    assert grids(zh.stdout) == grids(en.stdout)


def test_generate_on_a_graph_in_chinese(run_cli, tmp_path):
    graph = tmp_path / "g.txt"
    graph.write_text("a b\nb c\n", encoding="utf-8")
    args = ["generate", "--graph", str(graph), "--target", "lit", "--count", "3", "--seed", "1"]
    en, zh = run_cli(args), run_cli(["--lang", "zh", *args])
    assert en.returncode == zh.returncode == 0
    assert en.stdout.startswith("# countlo generate: 3 boards on the graph of 3 nodes and 2 edges, sigma+, "
                                "target lit, uniform over the solvable boards, seed 1\n")
    assert zh.stdout.startswith("# countlo generate：3 个盘面（3 个节点、2 条边的图，sigma+，目标 lit），"
                                "在所有有解盘面中均匀抽取，种子 1\n")
    assert grids(zh.stdout) == grids(en.stdout)


def test_generate_json_is_the_same_in_chinese(run_cli):
    args = ["generate", "--size", "4x4", "--count", "2", "--seed", "5", "--json"]
    en, zh = run_cli(args), run_cli(["--lang", "zh", *args])
    assert zh.stdout == en.stdout and [json.loads(line)["index"] for line in zh.stdout.splitlines()] == [1, 2]


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command, english, chinese", [
    (["generate", "--count", "0"], "argument --count: expected 1..1000000, not 0",
     "参数 --count：应在 1..1000000 之间，不能是 0"),
    (["generate", "--seed", "x"], "argument --seed: expected a whole number in the digits 0-9, not 'x'",
     "参数 --seed：应为用数字 0-9 写的整数，不能是 'x'"),
    (["generate", "--states", "3x"], "--states must be a whole number written with the digits 0-9, not '3x'",
     "--states必须是用数字 0-9 写的整数，不能是 '3x'"),
    (["practice", "--size", "20x20"], "practice boards are at most 18x18; 20x20 is larger",
     "练习盘面最大 18x18；20x20 超出了"),
    (["practice", "--rule", "x", "--size", "19x3"], "practice boards are at most 18x18; 19x3 is larger",
     "练习盘面最大 18x18；19x3 超出了"),
    (["practice", "--states", "1x"], "--states must be a whole number written with the digits 0-9, not '1x'",
     "--states必须是用数字 0-9 写的整数，不能是 '1x'"),
    (["practice", "--seed", "3x"], "--seed must be a whole number written with the digits 0-9, not '3x'",
     "--seed必须是用数字 0-9 写的整数，不能是 '3x'"),
    (["practice", "{corner}", "--seed", "3"], "give FILE or --seed/--difficulty, not both",
     "FILE 和 --seed/--difficulty 只能给一种，不能同时给"),
    (["practice", "{dark}"], "{dark}: every light is already off", "{dark}：所有灯已经是灭的"),
    (["practice", "{dark}", "--rule", "x"], "{dark}: the start is already the target", "{dark}：初始盘面已经就是目标"),
    (["practice", "{corner}", "--size", "3x3"], "{corner} holds a 4x4 board but --size says 3x3",
     "{corner} 是 4x4 盘面，但 --size 是 3x3"),
    (["practice", "{corner}", "--size", "3x3", "--rule", "x"], "{corner} holds a 4x4 board but --size says 3x3",
     "{corner} 是 4x4 盘面，但 --size 是 3x3"),
    (["practice", "{corner}"],
     "{corner}: this 4x4 board can never be turned all dark (countlo solve {corner} shows the proof)",
     "{corner}：这个 4x4 盘面永远无法全灭（countlo solve {corner} 会给出证明）"),
    (["practice", "{corner}", "--rule", "plus"],
     "{corner}: this 4x4 board can never reach the target under these rules (countlo solve with the same "
     "options shows the proof)",
     "{corner}：在这些规则下，这个 4x4 盘面永远到不了目标（用相同选项运行 countlo solve 会给出证明）"),
])
def test_refusals_in_one_chinese_line(run_cli, tmp_path, command, english, chinese):
    files = {"corner": write(tmp_path, "corner.txt", "#...\n....\n....\n....\n"),  # 4x4: no clicks clear it
             "dark": write(tmp_path, "dark.txt", "...\n...\n...\n")}
    command = [word.format(**files) for word in command]
    en, zh = run_cli(command, input=""), run_cli(["--lang", "zh", *command], input="")
    assert en.returncode == zh.returncode != 0 and en.stdout == zh.stdout == ""
    prefix = f"countlo {command[0]}: "
    assert en.stderr.startswith(prefix) and english.format(**files) in en.stderr, en.stderr
    assert zh.stderr.startswith(prefix) and chinese.format(**files) in zh.stderr, zh.stderr
    assert len(zh.stderr.splitlines()) == 1


@pytest.mark.parametrize("args, english, chinese", [
    (["--size", "5x5", "--presses", "26"], "--presses 26: a 5x5 board needs 1 to 25 presses",
     "--presses 26：5x5 盘面需要 1 到 25 次点击"),
    (["--size", "4x4", "--states", "3", "--presses", "40"],
     "--presses 40: this board needs 1 to 32 presses (counted with multiplicity)",
     "--presses 40：这个盘面需要 1 到 32 次点击（按次数计）"),
    (["--size", "1x1", "--difficulty", "hard"],
     "a 1x1 board has no hard boards: the fewest presses of its boards go up to at most 1",
     "1x1 盘面没有 hard 难度的题目：它的最少点击数最多只到 1"),
    (["--size", "1x1", "--rule", "x", "--difficulty", "hard"],
     "this board has no hard boards: the fewest presses of its boards go up to at most 1",
     "这种盘面没有 hard 难度的题目：它的最少点击数最多只到 1"),
    (["--size", "30x30", "--difficulty", "easy"],
     "--difficulty needs the exact fewest presses of each board, found by walking all 2^nullity solutions; "
     "30x30 has nullity 20 (at most 16 here)",
     "--difficulty 需要每个盘面准确的最少点击数，要遍历全部 2^零化度 个解才能得到；30x30 的零化度是 20（这里最多 16）"),
    (["--size", "9x9", "--rule", "knight", "--topology", "torus", "--presses", "3"],
     "--presses needs the exact fewest presses of each board, found by walking all of its 16777216 solutions; "
     "at most 65536 here",
     "--presses 需要每个盘面准确的最少点击数，要遍历它的全部 16777216 个解才能得到；这里最多 65536 个"),
    (["--size", "4x4", "--presses", "16", "--seed", "1"],
     "no 4x4 board needs exactly 16 presses: the hardest solvable boards need 7 presses",
     "没有 4x4 盘面恰好需要 16 次点击：最难的有解盘面需要 7 次点击"),
    (["--size", "4x4", "--rule", "x", "--presses", "16", "--seed", "1"],
     "no board needs exactly 16 presses here: the hardest solvable boards need 8 presses",
     "这里没有盘面恰好需要 16 次点击：最难的有解盘面需要 8 次点击"),
])
def test_generate_refusals_from_the_drawing_in_chinese(run_cli, args, english, chinese):
    en, zh = run_cli(["generate", *args]), run_cli(["--lang", "zh", "generate", *args])
    assert en.returncode == zh.returncode != 0
    assert en.stderr.startswith("countlo generate: ") and english in en.stderr, en.stderr
    assert zh.stderr.startswith("countlo generate: ") and chinese in zh.stderr, zh.stderr
    assert len(zh.stderr.splitlines()) == 1
