"""solve, replay and simulate in Chinese: every sentence translated (cell names, option names and
the program's own names stay), the same boards and numbers as in English, columns that line up
with double-width characters, errors in one Chinese line, and the files they read unchanged."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from countlo.i18n import width

CJK = re.compile(r"[\u4e00-\u9fff]")
# words that are the same in every language: names of engines, strategies, options and formats
KEPT = {"countlo", "play", "resume", "replay", "adaptive", "exact", "linear", "auto", "Ctrl",
        "rows", "restore", "size", "RxC", "start", "false", "lit", "all", "on", "min", "engine",
        "undo", "fix", "ms", "plus", "knight", "sigma"}
ENGLISH_WORD = re.compile(r"(?<![A-Za-z/.$_-])[A-Za-z]{2,}(?![A-Za-z/._-])")
TRANSCRIPTS = ROOT / "transcripts"


def english_left(text: str, *typed: str) -> list[str]:
    """English words in `text` other than cell names (A1..AB12), what was `typed`, or KEPT."""
    for t in typed:
        text = text.replace(t, "")
    return [w for w in ENGLISH_WORD.findall(text)
            if w not in KEPT and not re.fullmatch(r"[A-Z]{1,2}", w)]


def boards(text: str) -> list[str]:
    """The lines of the board pictures: column letters and numbered rows of cells."""
    return [ln for ln in text.splitlines() if re.fullmatch(r"[\s0-9A-Z#.XQ]+", ln) and ln.strip()]


@pytest.mark.parametrize("args", [
    ["--all-on", "--size", "5x5", "--all"],
    ["--all-on", "--size", "6x6", "--min"],
    ["--all-on", "--size", "4x4", "--classes"],
    ["--lit", "1,7,13", "--size", "5x5", "--quiet"],
    ["--size", "4x5", "--most"],
])
def test_solve_speaks_chinese_with_the_same_boards(run_cli, args):
    en, zh = run_cli(["solve", *args]), run_cli(["--lang", "zh", "solve", *args])
    assert en.returncode == zh.returncode and zh.stderr == ""
    assert not CJK.search(en.stdout) and CJK.search(zh.stdout)
    assert english_left(zh.stdout) == [], zh.stdout
    assert boards(zh.stdout) == boards(en.stdout)
    numbers = re.compile(r"\d+")
    assert sorted(numbers.findall(zh.stdout)) == sorted(numbers.findall(en.stdout))  # words move


def test_solve_errors_in_one_chinese_line(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# . #\n. ?\n", encoding="utf-8")
    for args in (["--lit", "1", "--all-on", "--size", "3x3"], ["--lit", "99", "--size", "3x3"],
                 [str(bad)], ["--all-on"], ["--size", "7y7", "--all-on"], ["--all-on", "--size", "3x3", "--limit", "2"]):
        r = run_cli(["--lang", "zh", "solve", *args])
        assert r.returncode == 2 and r.stdout == "", args
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("countlo solve: "), r.stderr
        assert CJK.search(r.stderr) and english_left(r.stderr.split(": ", 1)[1], str(bad)) == [], r.stderr


def columns_of(line: str, at: int) -> str:
    """The text of `line` from terminal column `at` on."""
    col = 0
    for i, ch in enumerate(line):
        if col >= at:
            return line[i:]
        col += width(ch)
    return ""


def test_replay_explains_in_chinese_with_its_table_aligned(run_cli):
    path = str(TRANSCRIPTS / "6x6-adaptive-seed1.txt")
    en = run_cli(["replay", path, "--explain"])
    zh = run_cli(["--lang", "zh", "replay", path, "--explain"])
    assert en.returncode == zh.returncode == 0
    assert english_left(zh.stdout, path) == [], zh.stdout
    assert boards(zh.stdout) == boards(en.stdout)
    table = [ln for ln in zh.stdout.splitlines()[2:] if re.match(r"\s+\d+\s+\d+\s", ln)]
    head = zh.stdout.splitlines()[2]
    assert len(table) > 10
    # every column ends where its title ends, in terminal columns
    ends = [m.end() for m in re.finditer(r"\S+", head)]
    titles_end = [width(head[:e]) for e in ends]
    for row in table:
        cells = [width(row[:m.end()]) for m in re.finditer(r"\S+", row)]
        assert cells[0] == titles_end[0] and cells[1] == titles_end[1], (head, row)
    assert "<- 已确定" in zh.stdout


@pytest.mark.parametrize("name", ["ambiguous-6x6.txt", "corrected-6x6.txt", "click-back-6x6.txt"])
def test_replay_reports_in_chinese(run_cli, name):
    path = str(TRANSCRIPTS / name)
    en, zh = run_cli(["replay", path]), run_cli(["--lang", "zh", "replay", path])
    assert en.returncode == zh.returncode
    assert english_left(zh.stdout, path) == [], zh.stdout
    assert boards(zh.stdout) == boards(en.stdout)


def test_a_malformed_transcript_is_told_in_chinese(run_cli, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# countlo transcript 1\n# size: 3x3\n\nstart x\nC9 4\nundo\nundo\nundo\n",
                    encoding="utf-8")
    r = run_cli(["--lang", "zh", "replay", str(path)])
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1 and "另有" in r.stderr
    assert english_left(r.stdout + r.stderr, str(path), "countlo replay") == [], r.stdout + r.stderr
    assert path.read_text(encoding="utf-8").startswith("# countlo transcript 1\n")


def test_simulate_table_lines_up_in_chinese(run_cli):
    args = ["simulate", "--games", "4", "--size", "4x5", "--jobs", "1"]
    en, zh = run_cli(args), run_cli(["--lang", "zh", *args])
    assert en.returncode == zh.returncode == 0
    assert english_left(zh.stdout) == [], zh.stdout
    rows = zh.stdout.splitlines()[1:]
    starts = {width(ln) - width(columns_of(ln, 19)) for ln in rows}
    assert starts == {19}
    values = [columns_of(ln, 19).split()[0] for ln in rows]
    assert values[:3] == [columns_of(ln, 21).split()[0] for ln in en.stdout.splitlines()[1:4]]


def test_a_game_program_failing_in_worker_processes_is_told_in_chinese(run_cli):
    r = run_cli(["--lang", "zh", "simulate", "--games", "2", "--jobs", "2", "--oracle-cmd", "false"])
    assert r.returncode == 1
    fails = [ln for ln in r.stdout.splitlines() if ln.strip().startswith("种子")]
    assert len(fails) == 2 and all("开始时，程序退出了（退出码 1）" in ln for ln in fails), r.stdout
    assert english_left(r.stdout, "'false'") == [], r.stdout


@pytest.mark.parametrize("args", [
    ["--all-on", "--size", "4x4", "--topology", "torus", "--rule", "x", "--states", "3", "--quiet"],
    ["--all-on", "--size", "5x5", "--topology", "cylinder", "--all", "--limit", "3"],
    ["--lit", "1", "--size", "4x4", "--states", "3"],
    ["--lit", "1", "--size", "5x5", "--rule", "knight"],
    ["--all-on", "--size", "3x3", "--topology", "klein", "--classes"],
])
def test_solve_under_other_rules_speaks_chinese(run_cli, args):
    en, zh = run_cli(["solve", *args]), run_cli(["--lang", "zh", "solve", *args])
    assert en.returncode == zh.returncode and zh.stderr == ""
    assert english_left(zh.stdout, "knight", "x 规则") == [], zh.stdout
    assert sorted(re.findall(r"\d+", zh.stdout)) == sorted(re.findall(r"\d+", en.stdout))


def test_solve_on_a_graph_speaks_chinese(run_cli, tmp_path):
    graph = tmp_path / "g.txt"
    graph.write_text("nodes: a b c\na b\nb c\n", encoding="utf-8")
    en = run_cli(["solve", "--graph", str(graph), "-"], input="a\n")
    zh = run_cli(["--lang", "zh", "solve", "--graph", str(graph), "-"], input="a\n")
    assert en.returncode == zh.returncode == 0
    assert en.stdout.startswith("graph of 3 nodes and 2 edges, sigma+: solvable")
    assert zh.stdout.startswith("3 个节点、2 条边的图，sigma+：有解")
    assert english_left(zh.stdout, "sigma+") == [], zh.stdout


def test_rule_errors_in_one_chinese_line(run_cli, tmp_path):
    rule = tmp_path / "rule.txt"
    rule.write_text("#.#\n.#.\n", encoding="utf-8")
    for args, said in ((["--topology", "donut"], "未知拓扑 'donut'"),
                       (["--rule", "foo"], "未知的点击规则 'foo'"),
                       (["--rule", str(rule)], "没有标出中心"),
                       (["--states", "300"], "状态数必须在 2..255 之间")):
        r = run_cli(["--lang", "zh", "solve", "--all-on", "--size", "3x3", *args])
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith("countlo solve: ") and said in r.stderr, r.stderr


def test_a_missing_file_is_told_in_chinese(run_cli, tmp_path):
    missing = str(tmp_path / "nope.txt")
    for command in (["solve", missing], ["replay", missing], ["play", "--resume", missing]):
        r = run_cli(["--lang", "zh", *command])
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert f"无法读取 {missing}：没有这个文件或目录" in r.stderr, r.stderr
