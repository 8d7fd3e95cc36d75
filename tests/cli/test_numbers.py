"""Every number is read one way: ASCII digits, a length limit, one message, never a traceback;
empty option values are refused; Ctrl-C while starting up is one line (issue 28, item 7)."""

from __future__ import annotations

import importlib

import pytest

cli_main = importlib.import_module("countlo.cli.main")

LONG = "9" * 5000


def refused(r) -> bool:
    return r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize(("argv", "stdin"), [
    (["solve", "--graph", "{g}", "-"], "a=\u00b2\n"),       # a superscript two: isdigit() but not int()
    (["solve", "--graph", "{g}", "-"], f"a={LONG}\n"),     # past int()'s 4300 digits
    (["solve", "--graph", "{g}", "-"], "a=\u0663\n"),       # an Arabic-Indic three: int() takes it
    (["solve", "--states", "11", "-"], f"{LONG} 1\n1 1\n"),
    (["solve", "--states", "\u0662", "--size", "2x2", "--lit", "1"], None),
    (["play", "--states", "\u0662", "--sim"], None),
    (["generate", "--seed", "\u0663"], None),
    (["generate", "--seed", "\u00b2"], None),
    (["generate", "--count", "\u00b2"], None),
    (["practice", "--seed", "\u0663"], None),
    (["practice", "--states", "\u0663", "--size", "3x3"], None),
    (["solve", "--rule", "{rule}", "--size", "3x3", "--lit", "1"], None),
], ids=lambda v: repr(v)[:40])
def test_numbers_are_ascii_bounded_and_refused_in_one_line(run_cli, tmp_path, argv, stdin):
    (tmp_path / "g.txt").write_text("a b\n")
    (tmp_path / "rule.txt").write_text("mask 0:0 \u0661:0\n")
    argv = [a.replace("{g}", str(tmp_path / "g.txt")).replace("{rule}", str(tmp_path / "rule.txt")) for a in argv]
    r = run_cli(argv, input=stdin)
    assert refused(r), r.stderr
    assert "_seed" not in r.stderr and "invalid" not in r.stderr  # no internal function named


@pytest.mark.parametrize("argv", [
    ["simulate", "--records", "", "--games", "1"],
    ["simulate", "--topology", "", "--games", "1"],
    ["solve", "--topology", "", "--size", "3x3", "--lit", "1"],
    ["solve", "--size", "3x3", "--lit", "1", "--out", ""],
    ["play", "--sim", "--transcript", ""],
    ["play", "--resume", ""],
])
def test_an_empty_value_is_refused_not_ignored(run_cli, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    r = run_cli(argv, input="")
    assert refused(r) and "empty value" in r.stderr, r.stderr
    assert not any(tmp_path.rglob("*"))


def test_ctrl_c_while_starting_up_is_one_line(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", interrupted)
    assert cli_main.main(["solve", "--size", "3x3", "--lit", "1"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "interrupted" and "Traceback" not in err
