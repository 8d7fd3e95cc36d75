"""The message catalogues: every marked message has a Chinese translation keeping its
placeholders, the committed .mo is compiled from the committed .po, the language is chosen from
--lang or the environment, and text is measured in terminal columns."""

from __future__ import annotations

import io
import re

import pytest
import tomllib
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo import i18n

PO = ROOT / "countlo" / "locale" / "zh_CN" / "LC_MESSAGES" / "countlo.po"
MO = PO.with_suffix(".mo")
PLACEHOLDER = re.compile(r"\{\w*(?:![rsa])?\}|%\(\w+\)[sdr]|%[sdr]")


def extracted() -> dict[str | tuple[str, ...], str]:
    """Every message marked in countlo/ (as babel.cfg maps it) -> where it is marked."""
    out: dict[str | tuple[str, ...], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT / "countlo"), method_map=[("**.py", "python")]):
        out.setdefault(message, f"countlo/{filename}:{lineno}")
    return out


def catalogue():
    with open(PO, "rb") as f:
        return read_po(f, locale="zh_CN")


def test_every_message_has_a_chinese_translation():
    cat = catalogue()
    missing = []
    for message, where in extracted().items():
        key = message if isinstance(message, str) else message[0]
        entry = cat.get(key)
        strings = () if entry is None else (
            entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or not all(strings) or entry.fuzzy:
            missing.append(f"{where}: {key!r}")
    assert not missing, ("messages without a zh_CN translation (pybabel update, then translate "
                         "them in countlo.po; see docs/CONTRIBUTING.md):\n" + "\n".join(missing))


def test_translations_keep_every_placeholder():
    wrong = []
    for entry in catalogue():
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        for s in strings:
            if s and sorted(set(PLACEHOLDER.findall(s))) != wanted:
                wrong.append(f"{ids[0]!r} -> {s!r}")
    assert not wrong, "\n".join(wrong)


def test_translated_help_keeps_its_lines_within_80_columns():
    """A message laid out in lines (a command's epilog) is shown line by line, and a line wider
    than the help's 79 columns is broken again (leaving a word or two on a line of its own): so
    the Chinese lines fit where the English ones do."""
    from countlo.cli.speech import HELP_COLUMNS

    wide = []
    for entry in catalogue():
        if not isinstance(entry.id, str) or "\n" not in entry.id or not entry.string:
            continue
        if all(i18n.width(line) <= HELP_COLUMNS for line in entry.id.split("\n")):
            wide += [f"{entry.id[:30]!r}: {line}" for line in entry.string.split("\n")
                     if i18n.width(line) > HELP_COLUMNS]
    assert not wide, "\n".join(wide)


def messages_of(mo: bytes) -> dict:
    """A compiled catalogue's messages (id -> translation), without its header: the header names
    the Babel version that compiled it, which a fresh install may not share."""
    def key(x):
        return tuple(x) if isinstance(x, (list, tuple)) else x

    return {key(m.id): key(m.string) for m in read_mo(io.BytesIO(mo)) if m.id}


def compiled(cat) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, cat)
    return buffer.getvalue()


def test_the_committed_mo_is_compiled_from_the_committed_po():
    assert messages_of(MO.read_bytes()) == messages_of(compiled(catalogue())), (
        "countlo.mo is stale: pybabel compile -d countlo/locale -D countlo")


def test_the_mo_comparison_ignores_the_babel_version_and_sees_a_changed_translation(monkeypatch):
    import babel.messages.catalog

    monkeypatch.setattr(babel.messages.catalog, "VERSION", "0.1")  # as an older Babel would compile it
    cat = catalogue()
    other_babel = compiled(cat)
    assert other_babel != MO.read_bytes()
    assert messages_of(other_babel) == messages_of(MO.read_bytes())
    entry = next(m for m in cat if m.id and isinstance(m.id, str) and m.string and not m.fuzzy)
    entry.string = entry.string + "!"
    assert messages_of(compiled(cat)) != messages_of(MO.read_bytes())


def test_the_catalogues_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    shipped = {p for package, patterns in data.items() for pattern in patterns
               for p in ROOT.joinpath(*package.split(".")).glob(pattern)}
    assert {PO, MO} <= shipped


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LC_MESSAGES": "zh_CN", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LANGUAGE": "en", "LC_ALL": "zh_CN.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:zh_CN:en", "LANG": "C"}, "zh"),
    ({"LANGUAGE": "", "LANG": "zh_CN.GB2312"}, "zh"),
])
def test_the_environment_chooses_the_language(environ, lang):
    assert i18n.from_environment(environ) == lang


def test_use_switches_and_speaking_restores():
    i18n.use("en")
    assert i18n._("Board known") == "Board known"
    with i18n.speaking("zh"):
        assert i18n.language() == "zh"
        assert i18n._("Board known") == "盘面已确定"
        assert i18n.ngettext("{n} click", "{n} clicks", 1).format(n=1) == "1 次点击"
    assert i18n.language() == "en" and i18n._("Board known") == "Board known"
    assert i18n.ngettext("{n} click", "{n} clicks", 2).format(n=2) == "2 clicks"
    with pytest.raises(ValueError):
        i18n.use("fr")


def test_width_counts_terminal_columns():
    assert i18n.width("C4 17") == 5
    assert i18n.width("亮灯数") == 6
    assert i18n.width("点击 C4，") == 9
    assert i18n.ljust("灯", 4) == "灯  " and i18n.rjust("灯", 3) == " 灯"


def test_fill_breaks_chinese_between_characters_and_english_at_spaces():
    text = "这些亮灯数互相矛盾，而且不是输错一个数能解释的 C4 D5"
    lines = i18n.fill(text, 20)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(i18n.width(line) <= 20 for line in lines) and len(lines) > 1
    assert i18n.fill("one two three four", 9) == ["one two", "three", "four"]
    assert i18n.fill("", 10) == [""]


def test_fill_never_starts_a_line_with_closing_punctuation():
    for columns in range(6, 30):
        for line in i18n.fill("CountLightsOut（数灯版点灯游戏）的助手，以及完整的求解器。", columns)[1:]:
            assert line[:1] not in i18n.NO_BREAK_BEFORE, (columns, line)


def kinsoku_broken(lines: list[str]) -> list[str]:
    """The lines that start with closing punctuation or end with opening punctuation."""
    return [line for line in lines if line.strip() and (line.strip()[0] in i18n.NO_BREAK_BEFORE
                                                        or line.strip()[-1] in i18n.NO_BREAK_AFTER)]


@pytest.mark.parametrize("text", [
    "点击规则：plus（默认）、x、star、ring、knight、rowcol，或画出规则的文件 FILE；在 --graph 上用 sigma 或 sigma+",
    "每行一个 JSON 对象：rows、cols、seed、index、lights（0/1 网格）、fewest、presses（一个最少点击解的点击）",
    "除非被中途停止（--time-limit，默认 60 秒，或 Ctrl-C）：这时打印“找到的”最好结果（JSON 中 \"exact\": false）。",
])
def test_fill_keeps_punctuation_with_the_word_it_belongs_to(text):
    """Kinsoku: closing punctuation after an English word never starts a line, opening
    punctuation before one never ends a line, and every line still fits."""
    for columns in range(20, 70):  # from the widest word with its punctuation ('（--time-limit，')
        lines = i18n.fill(text, columns)
        assert kinsoku_broken(lines) == [], (columns, lines)
        assert all(i18n.width(line) <= columns for line in lines), (columns, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_fill_breaks_at_punctuation_only_when_nothing_else_fits():
    assert i18n.fill("用 rowcol，或（画出）规则", 9) == ["用", "rowcol，", "或（画", "出）规则"]
    assert i18n.fill("规则 rowcol，或", 10) == ["规则", "rowcol，或"]
    # a word as wide as the line: the comma has to start the next one rather than overflow
    assert i18n.fill("abcdefgh，中文", 8) == ["abcdefgh", "，中文"]
    assert i18n.fill("中文（abcdefgh", 8) == ["中文（", "abcdefgh"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab 中文，。（）“”", max_size=40), st.integers(1, 30))
def test_fill_keeps_the_text_and_the_width(text, columns):
    """Whatever the mix: the words in order, and a line wider than `columns` only when it is one
    unbreakable word (an English word with the punctuation it keeps)."""
    lines = i18n.fill(text, columns)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for line in lines:
        assert i18n.width(line) <= columns or len(i18n.split_atoms(line.strip())) == 1, (columns, lines)


def test_english_loads_no_catalogue_and_chinese_no_heavy_module():
    """The language costs `countlo solve` nothing in English (no catalogue read) and nothing heavy
    in Chinese: the stdlib gettext reads the compiled .mo, Babel is never imported."""
    import os
    import subprocess
    import sys

    probe = ("import sys, io; from countlo.cli import main; from countlo import i18n;"
             "sys.stdout = io.StringIO(); main({argv!r}); sys.stdout = sys.__stdout__;"
             "print(i18n._translation is None, ' '.join(sorted(sys.modules)))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    for argv, english in ((["solve", "--all-on", "--size", "6x6"], True),
                          (["--lang", "zh", "solve", "--all-on", "--size", "6x6"], False)):
        out = subprocess.run([sys.executable, "-c", probe.format(argv=argv)], env=env, text=True,
                             capture_output=True, check=True).stdout.split()
        modules = {m.split(".")[0] for m in out[1:]}
        assert out[0] == str(english)
        assert "babel" not in modules and not modules & {"typing", "dataclasses", "inspect", "json"}


def test_file_errors_say_why_in_the_language_spoken(tmp_path):
    missing = tmp_path / "nope.txt"
    try:
        missing.read_text()
    except OSError as e:
        error = e
    assert i18n.reason(error) == "No such file or directory"
    with i18n.speaking("zh"):
        assert i18n.reason(error) == "没有这个文件或目录"
        assert i18n.reason(OSError(99, "Something else")) == "Something else"
        assert i18n.reason(ValueError("bad")) == "bad"
