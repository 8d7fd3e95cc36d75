"""Every example of the README and of the manual (docs/*.md) is what the program prints (issue
11, item 16; issue 29: the manual moved into docs/).

Each fenced block line starting with ``$ countlo`` is run from a scratch folder that can see
``transcripts/`` and the files the pages describe; the lines under it, up to the next ``$``
line or the end of the block, must be what it prints. ``...`` on a line of its own stands for
any number of lines (a command whose comment says its numbers vary is not compared); times ("7.4 ms") and the dated transcript path are the only other things
that may differ. ``| head -N``, ``| tail -N``, and ``printf 'TEXT' |`` or ``yes '' |`` in front
work as in a shell.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The README and every page of the manual."""
    return [README, *sorted(DOCS.glob("*.md"))]

# files the examples name in their prose
FILES = {"start.txt": "# . #\n. # .\n# . #\n"}


def examples(page: Path = README) -> list[tuple[int, str, list[str]]]:
    """(line number, command, expected lines) of every '$ countlo' line in a fenced block."""
    out: list[tuple[int, str, list[str]]] = []
    inside, current = False, None
    for n, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("```"):
            inside = not inside
            current = None
            continue
        if not inside:
            continue
        # a line redirecting to a file and chaining a second command ("> f && countlo ...") is
        # not run here: tests/visible/test_generate.py and test_generate_general.py check the two such
        # examples of docs/generate.md themselves
        if (re.match(r"^\$ (printf .*\| |yes '' \| )?countlo\b", line) and "vary" not in line
                and " && " not in line):
            current = (n, line[2:], [])
            out.append(current)
        elif line.startswith("$ "):
            current = None
        elif current is not None:
            current[2].append(line)
    return out


def _normal(line: str) -> str:
    line = re.sub(r"\d+(\.\d+)? ms\b", "N ms", line)
    line = re.sub(r"\S*/countlo/\d{4}-\d\d-\d\d-\d{6}-(\S+)", r"DATA/countlo/DATE-\1", line)
    return line.rstrip()


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether `got` fits `expected`, where a '...' line stands for any number of lines."""
    exp = [_normal(x) for x in expected]
    act = [_normal(x) for x in got]
    while exp and exp[-1] == "":
        exp.pop()
    while act and act[-1] == "":
        act.pop()

    def fit(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i].strip() == "...":
            return any(fit(i + 1, k) for k in range(j, len(act) + 1))
        return j < len(act) and exp[i] == act[j] and fit(i + 1, j + 1)

    return fit(0, 0)


def run(command: str, cwd: Path) -> list[str]:
    """Run one example's command line as a shell would (printf | countlo ... | head/tail)."""
    stdin = ""
    m = re.match(r"^printf '([^']*)' \| (.*)$", command)
    if m:
        stdin = m.group(1).encode().decode("unicode_escape")
        command = m.group(2)
    if command.startswith("yes '' | "):  # Enter pressed as often as asked
        stdin, command = "\n" * 1000, command[len("yes '' | "):]
    code, _, _comment = command.partition("  #")
    parts = [p.strip() for p in code.split("|")]
    argv = shlex.split(parts[0])
    assert argv[0] == "countlo"
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1", COLUMNS="80",
               XDG_DATA_HOME=str(cwd / "data"))
    p = subprocess.run([sys.executable, "-m", "countlo", *argv[1:]], input=stdin,
                       capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
    assert "Traceback" not in p.stderr, p.stderr
    lines = p.stdout.rstrip("\n").split("\n")
    for filt in parts[1:]:
        name, count = filt.split()
        n = int(count.lstrip("-"))
        lines = lines[:n] if name == "head" else lines[-n:]
    return lines


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """One scratch folder per page, shared by that page's examples in order (a page may write a
    file that a later example of it reads, and two pages may name the same transcript)."""
    made: dict[str, Path] = {}

    def folder(page: str) -> Path:
        if page not in made:
            d = made[page] = tmp_path_factory.mktemp(Path(page).stem)
            for name in ("transcripts", "examples"):
                if (ROOT / name).exists():
                    (d / name).symlink_to(ROOT / name)
            for name, text in FILES.items():
                (d / name).write_text(text)
        return made[page]

    return folder


def all_examples() -> list[tuple[str, int, str, list[str]]]:
    """(page, line number, command, expected lines) of every example of every page."""
    return [(page.relative_to(ROOT).as_posix(), *example) for page in pages() for example in examples(page)]


def test_the_readme_has_examples_to_check():
    assert len(examples()) >= 8


def test_every_guide_has_examples_to_check():
    """Each command's guide shows what the command prints, and the test finds every one of them."""
    for name in ("play", "replay", "simulate", "solve", "generate", "practice", "rules", "zh"):
        assert examples(DOCS / f"{name}.md"), name
    assert {page for page, *_ in all_examples()} >= {"README.md", "docs/play.md", "docs/rules.md"}


def test_the_matcher_takes_dots_for_any_lines_and_nothing_else():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "c"])
    assert matches(["took 7.4 ms"], ["took 12 ms"])


@pytest.mark.parametrize("page, line, command, expected", all_examples(),
                         ids=[f"{page}:{n}" for page, n, _, _ in all_examples()])
def test_example_is_what_the_program_prints(folders, page, line, command, expected):
    got = run(command, folders(page))
    assert matches(expected, got), (f"{page} line {line}: {command}\n--- {page}\n" +
                                    "\n".join(expected) + "\n--- printed\n" + "\n".join(got))


def screen_block() -> list[str]:
    """docs/play.md's picture of an 80x24 terminal after six clicks of `play --sim --seed 1`."""
    text = (DOCS / "play.md").read_text(encoding="utf-8")
    start = text.index("What an 80x24 terminal shows after six")
    block = text[text.index("```\n", start) + 4:]
    return block[:block.index("```")].rstrip("\n").split("\n")


def test_the_terminal_picture_is_what_an_80_column_terminal_shows(tmp_path):
    pytest.importorskip("pexpect")
    pytest.importorskip("pyte")
    import tempfile
    import time

    from vt import Pty  # a pseudo-terminal that answers prompt_toolkit's cursor position requests,
    # so the status bar at the bottom is drawn as in a real terminal

    home = tempfile.mkdtemp(prefix="h", dir="/tmp")  # short: the transcript's path fits a line
    pty = Pty(["play", "--sim", "--seed", "1"], 80, 24, cwd=str(tmp_path),
              env={"HOME": home, "XDG_DATA_HOME": ""})
    try:
        pty.wait_for("Enter clicks", timeout=120)
        for n in range(1, 7):
            pty.send("\r")
            pty.wait_for(rf"(?m)^ +{n}\. .*boards? left", timeout=30)
            pty.wait_for("another cell\\)", timeout=30)
        size = -1
        while size != len(pty.screen.printed):  # nothing new for half a second: drawing complete
            size = len(pty.screen.printed)
            time.sleep(0.5)
        with pty.screen.lock:
            shown = [row.rstrip() for row in pty.screen.screen.display]
        pty.send("\x03")
        pty.wait_exit(120)
    finally:
        pty.close()
    readme = screen_block()
    # every row of the 80x24 screen, the status bar at the bottom included (its keys as far as
    # 80 columns hold them), and nothing wider than the terminal
    assert max(len(line) for line in readme) <= 80, readme
    assert len(readme) == 24 and matches(readme, shown), "\n".join(shown)
    # the status bar (prompt_toolkit's bottom toolbar) is the plain status line plus its keys
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=home, NO_COLOR="1")
    lines = subprocess.run(
        [sys.executable, "-m", "countlo", "play", "--sim", "--seed", "1", "--plain",
         "--transcript", str(tmp_path / "s.txt")], input="\n" * 6 + "quit\n", capture_output=True,
        text=True, env=env, timeout=300).stdout.split("\n")
    after_six = [x for x in lines if x.startswith("6 clicks · ")]
    assert after_six and readme[-1].strip() == after_six[0].strip() + " · F2 undo"


def test_the_rules_page_says_a_cell_reached_twice_changes_twice():
    """Issue 31: only docs/MATH.md said it, and the other reading changes many small answers."""
    from countlo.board import Shape
    from countlo.rules import Rules

    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "A cell one click reaches more than once changes once each time" in rules
    assert "with two states it does not toggle at all" in rules
    shape = Shape(1, 2, Rules.make("cylinder"))  # the page's example: A1 reaches B1 twice
    assert shape.hits(0) == {0: 1, 1: 0} and shape.neighbours(0) == (0,)


def test_every_strategy_is_in_the_play_guide():
    """Issue 31: `entropy` was missing."""
    from countlo.play.strategies.names import strategy_names

    text = (DOCS / "play.md").read_text(encoding="utf-8")
    table = text[text.index("## Strategies"):text.index("Why the adaptive strategy works")]
    for name in strategy_names():
        assert f"| `{name}`" in table, name
