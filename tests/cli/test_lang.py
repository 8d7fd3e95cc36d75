"""--lang and the environment choose the language of every command's --help, its messages and
its errors; English stays the default and the words of argparse itself are translated too."""

from __future__ import annotations

import re

import pytest

from countlo.cli.main import COMMANDS

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_help_in_english_and_in_chinese(run_cli, command):
    en = run_cli([*command, "--help"])
    zh = run_cli(["--lang", "zh", *command, "--help"])
    assert en.returncode == zh.returncode == 0
    assert en.stdout.startswith("usage: countlo") and not CJK.search(en.stdout)
    assert "show this help message and exit" in en.stdout
    assert zh.stdout.startswith("用法：countlo") and "显示此帮助信息并退出" in zh.stdout
    assert "usage" not in zh.stdout and "show this help" not in zh.stdout
    assert "show program's version" not in zh.stdout
    # the same options in the same order: only the words around them change
    options = re.compile(r"^\s+(-[-\w, ]+?)(?:\s|$)", re.M)
    assert options.findall(zh.stdout) == options.findall(en.stdout)


def test_help_lines_fit_the_terminal_in_chinese(run_cli, monkeypatch):
    from countlo.i18n import width

    monkeypatch.setenv("COLUMNS", "80")
    for command in ("play", "simulate", "replay", "solve", "generate", "practice"):
        out = run_cli(["--lang", "zh", command, "--help"]).stdout
        too_wide = [line for line in out.splitlines() if width(line) > 79]
        assert not too_wide, too_wide


@pytest.mark.parametrize("columns", ["60", "80", "120"])
def test_chinese_help_lines_keep_punctuation_with_its_words(run_cli, monkeypatch, columns):
    """No line of any command's Chinese help starts with closing punctuation (，。）after an
    English word) or ends with opening punctuation (（“), at any terminal width."""
    from countlo.i18n import NO_BREAK_AFTER, NO_BREAK_BEFORE

    monkeypatch.setenv("COLUMNS", columns)
    for command in [[], *([c] for c in COMMANDS)]:
        out = run_cli(["--lang", "zh", *command, "--help"]).stdout
        broken = [line for line in out.splitlines() if line.strip() and (line.strip()[0] in NO_BREAK_BEFORE
                                                                         or line.strip()[-1] in NO_BREAK_AFTER)]
        assert not broken, (command, broken)


# names that stay as they are in Chinese help: values the options take, commands typed at the prompt
NAMES = {"plane", "cylinder", "torus", "moebius", "klein", "projective", "plus", "star", "ring",
         "knight", "rowcol", "sigma", "nodes", "png", "svg", "zh", "en", "Esc", "board", "help",
         "history", "quit", "undo", "fix", "countlo", "auto", "rows", "restore", "z3", "Ctrl", "RxC",
         "dark", "lit", "size", "false", "play", "replay", "simulate", "solve",
         "Dask", "pip", "install", "cluster", "tcp", "tls",  # the --scheduler help: a product, a command, addresses
         "easy", "medium", "hard", "generate", "practice", "hint", "max", "round",  # the bands' formulas
         "userscript", "https",  # the command that writes the page's script; the scheme of an example origin
         "shell", "bash", "zsh", "fish", "man", "eval", "fpath", "local", "share", "completions", "config",
         "zshrc", "completion",  # countlo shell: the shells, and the paths and commands that install the scripts
         "redo", "solution", "restart", "new", "merlin", "Merlin", "Delete"}  # practice's commands, a key, the preset
# the keys of `countlo generate --json`, named as they are in the JSON
JSON_KEYS = {"generate": {"rows", "cols", "seed", "index", "lights", "fewest", "presses", "topology", "rule",
                          "states"}}


@pytest.mark.parametrize("command", ["play", "replay", "simulate", "solve", "generate", "practice", "userscript",
                                     "shell"])
def test_chinese_help_leaves_no_english_sentence(run_cli, command):
    from countlo.hidden.result import engine_names
    from countlo.play.strategies.names import strategy_names

    out = run_cli(["--lang", "zh", command, "--help"]).stdout
    out = re.sub(r"--?[\w-]+|\$\w+|~/\S+|\b[A-Z][A-Z_|.]+\b", "", out)  # options, metavars, paths
    kept = NAMES | set(strategy_names()) | set(engine_names()) | JSON_KEYS.get(command, set())
    words = re.findall(r"(?<![A-Za-z/.$_-])[A-Za-z]{2,}(?![A-Za-z/._-])", out)
    assert sorted({w for w in words if w not in kept and not re.fullmatch(r"[A-Z]{1,2}", w)}) == [], out


@pytest.mark.parametrize(("command", "english", "chinese"), [
    ("generate", "how many boards (default 1)", "生成几个盘面（默认 1）"),
    ("generate", "boards whose fewest-press count is exactly N", "最少点击数恰为 N 的盘面"),
    ("generate", "the goal: every light dark (default) or lit (state 1)", "目标：所有灯都灭（默认）或都亮（状态 1）"),
    ("generate", "Boards are drawn uniformly from the solvable ones", "盘面从有解的盘面中均匀抽取"),
    ("practice", "board size for a random start (default 5x5)", "随机初始盘面的大小（默认 5x5）"),
    ("practice", "seed of the random start (default: chosen and", "随机初始盘面的种子（默认随机选取并显示）"),
    ("practice", "Boards up to 18x18; graphs and press maps up to 18", "盘面最大 18x18；图和按键表最多 18 行"),
])
def test_generate_and_practice_option_help_is_translated(run_cli, monkeypatch, command, english, chinese):
    # their option help (and the rule options they share with solve) stayed English under --lang zh
    monkeypatch.setenv("COLUMNS", "80")
    en = run_cli([command, "--help"]).stdout
    zh = run_cli(["--lang", "zh", command, "--help"]).stdout
    assert english in en and english not in zh
    assert chinese in zh


def test_lang_may_follow_the_command_and_errors_speak_it(run_cli):
    zh = run_cli(["play", "--lang", "zh", "--seed", "3"])
    assert zh.returncode == 2
    assert zh.stderr == "countlo play: --seed 用来选择模拟盘面，请与 --sim 一起使用\n"
    en = run_cli(["play", "--lang", "en", "--seed", "3"])
    assert en.stderr == "countlo play: --seed chooses the simulated board; use it with --sim\n"
    bad = run_cli(["--lang", "zh", "play", "--strategy", "nope"])
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    assert "无效的选择：'nope'" in bad.stderr and "（见 'countlo play --help'）" in bad.stderr


def test_an_unknown_language_is_a_usage_error(run_cli):
    r = run_cli(["--lang", "fr", "solve", "--all-on", "--size", "3x3"])
    assert r.returncode == 2 and "--lang" in r.stderr and "invalid choice" in r.stderr


@pytest.mark.parametrize(("env", "chinese"), [
    ({"LANG": "zh_CN.UTF-8"}, True),
    ({"LC_ALL": "zh_CN.UTF-8"}, True),
    ({"LANGUAGE": "zh_CN:en", "LANG": "C.UTF-8"}, True),
    ({"LANG": "en_US.UTF-8"}, False),
    ({"LANG": "zh_CN.UTF-8", "LANGUAGE": "en"}, False),
])
def test_the_environment_chooses_without_lang(run_cli, monkeypatch, env, chinese):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    out = run_cli(["play", "--help"]).stdout
    assert bool(CJK.search(out)) is chinese
    assert "用法：" in run_cli(["--lang", "zh", "play", "--help"]).stdout
    assert "usage: " in run_cli(["--lang", "en", "play", "--help"]).stdout


def test_a_chinese_session_over_plain_lines(run_cli, tmp_path):
    path = tmp_path / "t.txt"
    r = run_cli(["--lang", "zh", "play", "--sim", "--seed", "1", "--size", "3x3",
                 "--transcript", str(path)], input="\n" * 40)
    assert r.returncode == 0, r.stderr
    assert "完成：" in r.stdout and "隐藏的盘面是：" in r.stdout
    assert not CJK.search(path.read_text(encoding="utf-8"))  # the transcript is the same in any language


def test_a_chinese_practice_game_over_plain_lines(run_cli, tmp_path):
    """practice speaks Chinese too: greeting, rule, edges, a hole's refusal, the overlay, the
    hint, the win; none of its English sentences is left (cell names and commands stay)."""
    import re

    start = tmp_path / "start.txt"
    start.write_text(".#.\n###\n.#x\n")  # B2 clicked on the torus; C3 is a hole
    r = run_cli(["--lang", "zh", "practice", str(start), "--topology", "torus", "--plain"],
                input="solution\nC3\nhint\nB2\n")
    out = r.stdout
    assert r.returncode == 0, r.stderr
    for said in ("3x3 盘面，有 1 个洞（环面，plus 规则）", "把所有灯都关掉，点击越少越好：1 次就够", "边界：环面", "标着 x 的格子是洞",
                 "解法已显示", "C3 是洞：那里没有可点击的格子", "提示：点击 B2", "全灭：用 1 步解开（已是最少"):
        assert said in out, said
    english = re.compile(r"Turn every|Clicking a|Hint: click|Solution shown|is a hole|All dark|solved in")
    assert not english.search(out), out
