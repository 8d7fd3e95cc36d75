"""Text from outside reaches the terminal with its control characters escaped: graph node names,
a game program's stderr, piped input echoed, argv in error lines (issue 28, item 1)."""

from __future__ import annotations

import io
import sys

import pytest

from countlo.printable import Printable, printable, unescaped

TITLE = "\033]0;PWNED\007\033[2J"


def raw_controls(text: str) -> list[str]:
    """Control characters a terminal would act on (newlines and tabs are layout)."""
    return [c for c in text if c != printable(c, lines=True)]


def test_printable_escapes_every_control_and_keeps_the_rest():
    assert printable(TITLE) == "\\x1b]0;PWNED\\x07\\x1b[2J"
    assert printable("a\rb\nc\td\x7f\x9b\u202e") == "a\\rb\\nc\\td\\x7f\\x9b\\u202e"
    assert printable("a\nb\tc", lines=True) == "a\nb\tc"
    assert printable("盘面 A1 · 3×3") == "盘面 A1 · 3×3"
    assert all(printable(chr(c)) != chr(c) for c in [*range(32), 127, *range(0x80, 0xA0)])


def test_the_stream_escapes_and_its_owner_writes_control_under_it():
    inner = io.StringIO()
    stream = Printable(inner)
    stream.write("x" + TITLE + "\n")
    assert inner.getvalue() == "x\\x1b]0;PWNED\\x07\\x1b[2J\n"
    unescaped(stream).write("\r\x1b[K")  # the status line's own control sequence
    assert inner.getvalue().endswith("\r\x1b[K")


def test_a_graph_node_name_cannot_retitle_the_terminal(run_cli, tmp_path):
    graph = tmp_path / "g.txt"
    graph.write_text(TITLE + "\n")
    r = run_cli(["solve", "--graph", str(graph), "--all-on"])
    assert not raw_controls(r.stdout + r.stderr)
    assert "\\x1b]0;PWNED" in r.stdout + r.stderr


def test_piped_input_is_echoed_escaped(run_cli):
    r = run_cli(["practice", "--seed", "1", "--size", "3x3"], input="hint\n" + "\033]0;X\007\n")
    assert not raw_controls(r.stdout + r.stderr)
    assert "\\x1b]0;X\\x07" in r.stdout


def test_argv_in_an_error_line_is_escaped_and_one_line(run_cli):
    r = run_cli(["solve", "--size", "3x3\n\033[2J", "--lit", "1"])
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert not raw_controls(r.stderr)


def test_a_file_name_with_a_newline_stays_one_line(run_cli, tmp_path):
    r = run_cli(["replay", str(tmp_path / "no\nsuch\033[2J.txt")])
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and not raw_controls(r.stderr)


def test_a_game_programs_stderr_reaches_the_failure_line_escaped(run_cli, tmp_path):
    game = tmp_path / "game.py"
    game.write_text("import sys\nsys.stderr.write('boom \\033]0;PWNED\\007\\033[2J\\n')\nsys.exit(3)\n")
    r = run_cli(["simulate", "--size", "3x3", "--games", "1", "--jobs", "1",
                 "--oracle-cmd", f"{sys.executable} {game}"])
    assert r.returncode == 1, r.stderr
    assert "boom \\x1b]0;PWNED" in r.stdout and not raw_controls(r.stdout + r.stderr)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chinese_output_is_untouched(run_cli, lang):
    r = run_cli(["solve", "--size", "3x3", "--lit", "1", "--lang", lang])
    assert r.returncode == 0 and "\\x" not in r.stdout
