"""The README's Chinese section: its example is what `countlo --lang zh play` prints."""

from __future__ import annotations

import re
import shlex

from conftest import ROOT


def chinese_example() -> tuple[str, str, list[str]]:
    """(input, expected output, argv) of the example in the Chinese section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## 中文界面"):]
    block = section[section.index("```\n") + 4:]
    block = block[:block.index("```")]
    command, _, output = block.partition("\n")
    m = re.fullmatch(r"\$ printf '(.*)' \| countlo (.*)", command)
    assert m, command
    typed = m.group(1).replace("\\n", "\n")
    return typed, output, shlex.split(m.group(2))


def test_the_chinese_example_is_what_countlo_prints(run_cli, tmp_path, monkeypatch):
    typed, expected, argv = chinese_example()
    monkeypatch.delenv("NO_COLOR", raising=False)
    r = run_cli(argv, input=typed, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    shown = "\n".join(line.rstrip() for line in r.stdout.splitlines()) + "\n"
    assert shown == expected
    assert (tmp_path / "game.txt").exists()
