"""Fuzzing every command in-process through `main(argv)` (issue 11, "make it stay fixed").

Generated grids, transcripts, hand-written formats, prompt lines and option values go to solve,
replay, play and simulate. Whatever comes in, a command must:
- exit 0, 1 or 2 (an exception out of `main` fails the test with its traceback);
- for exit 2, print exactly one line on stderr, and never the word "Traceback";
- change no file except the ones it was asked to write (--out, --transcript, --resume, and the
  default transcript folder of `play`).

The quick profile runs in the ordinary suite. COUNTLO_FUZZ=long runs many more examples for a
release: `COUNTLO_FUZZ=long python -m pytest tests/test_fuzz.py -n 2`.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from countlo.cli import main

LONG = os.environ.get("COUNTLO_FUZZ") == "long"
EXAMPLES = 1500 if LONG else 40
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- what goes in -------------------------------------------------------------------------------

NASTY = ["", " ", "²", "١٨", "1_7", "-1", "0", "+3", "0x10", "1e3", "inf", "nan", "\u00a0",
         "9" * 30, "1" + "0" * 5000, "x" * 300, "é", "\x00", "6x6", "3x3", "C4", "A1", "Z99",
         "4 3", "-", "--", "#"]
COUNTS = [str(n) for n in range(0, 40)]
CELLS = ["A1", "B2", "C3", "C4", "D4", "A9", "Z1", "AA1", "4 3", "1 1", "9 9", "a1", "c4"]
SPACES = [" ", "\t", "\u00a0", "\u2003", "\u3000"]
SIZES = ["1", "2", "3x3", "4x4", "2x5", "5x2", "6x6", "1x7", "0x3", "3x0", "65536x1", "x", "3×3",
         "3 x 3", "70x70"]

token = st.one_of(st.sampled_from(NASTY), st.sampled_from(COUNTS), st.sampled_from(CELLS),
                  st.text(max_size=6))


@st.composite
def grid_text(draw) -> str:
    alphabet = st.sampled_from(list("10#*O.-") + SPACES + ["x", "²", "#", "\r"])
    rows = draw(st.lists(st.text(alphabet, max_size=9), max_size=7))
    if draw(st.booleans()) and rows:  # mostly rectangular, so real boards get solved too
        width = draw(st.integers(1, 7))
        rows = ["".join(draw(st.sampled_from("10#.")) for _ in range(width)) for _ in rows]
    return "\n".join(rows) + draw(st.sampled_from(["", "\n", "\n\n"]))


@st.composite
def transcript_text(draw) -> str:
    header = []
    if draw(st.booleans()):
        header.append(draw(st.sampled_from(["# countlo transcript 1", "# countlo transcript 9",
                                            "# countlo transcript x", "#countlo transcript 1"])))
    if draw(st.integers(0, 3)):
        header.append("# size: " + draw(st.one_of(st.sampled_from(SIZES), token)))
    if draw(st.booleans()):
        header.append("# " + draw(st.sampled_from(["seed", "engine", "strategy", "date", "size",
                                                    "x"])) + ": " + draw(token))
    body = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["start", "click", "click", "click", "undo", "fix", "note",
                                     "junk"]))
        if kind == "start":
            line = "start " + draw(st.one_of(st.sampled_from(COUNTS), token))
        elif kind == "click":
            line = draw(st.sampled_from(CELLS)) + draw(st.sampled_from([" ", " -> ", "=", ": "])) \
                + draw(st.one_of(st.sampled_from(COUNTS), token))
        elif kind == "undo":
            line = draw(st.sampled_from(["undo", "undo 3", "UNDO"]))
        elif kind == "fix":
            line = f"fix {draw(st.one_of(st.sampled_from(COUNTS[:6]), token))} " \
                   f"{draw(st.one_of(st.sampled_from(COUNTS), token))}"
        elif kind == "note":
            line = "# " + draw(st.text(max_size=10))
        else:
            line = " ".join(draw(st.lists(token, max_size=4)))
        body.append(line)
    end = draw(st.sampled_from(["\n", "", "\r\n"]))
    return "\n".join(header + [""] + body) + end


@st.composite
def hand_text(draw) -> str:
    lines = []
    if draw(st.booleans()):
        lines.append("# size: " + draw(st.sampled_from(SIZES)))
    lines.append(draw(st.one_of(st.sampled_from(COUNTS), token)))
    width = draw(st.integers(1, 4))
    for _ in range(draw(st.integers(0, 9))):
        n = width if draw(st.integers(0, 5)) else draw(st.integers(0, 5))
        lines.append(" ".join(draw(st.one_of(st.sampled_from(COUNTS), token)) for _ in range(n)))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


PROMPT = ["", "", "", "undo", "u", "help", "board", "history", "fix 0 3", "fix 1 17", "fix",
          "fix ² 3", "17!", "C4", "C4 17", "4 3 17", "C4=17", "Z9", "C4 99", "quit"]
prompt_line = st.one_of(st.sampled_from(PROMPT), st.sampled_from(COUNTS), token)

OPTIONS: dict[str, list[tuple[str, list[str] | None]]] = {
    "solve": [("--size", SIZES[:8] + NASTY), ("--all-on", None), ("--lit", ["1", "1,5,9", "0",
              "1 2", "3,3"] + NASTY), ("--all", None), ("--min", None), ("--classes", None),
              ("--limit", ["1", "3"] + NASTY), ("--full", None), ("--json", None),
              ("--to", ["grid.txt", "missing.txt"]), ("--out", ["out.txt", "sub/none/out.txt"])],
    "replay": [("--format", ["countlo", "rows", "restore"] + NASTY[:4]),
               ("--engine", ["auto", "exact", "linear", "z3", "x"]), ("--explain", None),
               ("--json", None), ("--size", SIZES[:8] + NASTY)],
    "play": [("--size", SIZES[:6] + NASTY), ("--strategy", ["adaptive", "restore", "sequential",
             "fixed", "manual", "x", ""]), ("--engine", ["exact", "linear", "z3", "x"]),
             ("--seed", ["1", "2", "-5"] + NASTY), ("--plain", None), ("--sim", None),
             ("--transcript", ["t.txt", "new.txt", "sub/none/t.txt"]), ("--resume", ["t.txt",
                                                                              "grid.txt"])],
    "simulate": [("--games", ["1", "2"] + NASTY), ("--size", ["3x3", "2x2", "1x4"] + NASTY),
                 ("--strategy", ["adaptive", "fixed", "greedy", "manual", "x"]),
                 ("--engine", ["exact", "linear", "x"]), ("--seed", ["0", "7"] + NASTY),
                 ("--density", ["0", "1", "0.5"] + NASTY), ("--timeout", ["1", "0.5"] + NASTY),
                 ("--oracle-cmd", ["", "'", "true", "false", "/nonexistent/game", '"a b'] +
                  NASTY[:3]), ("--json", None)],
}
EXPENSIVE = {"65535x65535"}


@st.composite
def command_line(draw, command: str) -> list[str]:
    argv = [command]
    for flag, values in draw(st.lists(st.sampled_from(OPTIONS[command]), max_size=5)):
        argv.append(flag)
        if values is not None:
            argv.append(draw(st.sampled_from(values)))
    if command == "solve" and draw(st.booleans()):
        argv.append(draw(st.sampled_from(["grid.txt", "-", "missing.txt", "t.txt"])))
    if command == "replay":
        argv.append(draw(st.sampled_from(["t.txt", "grid.txt", "-", "missing.txt"])))
    if command == "simulate" and "--games" not in argv:
        argv += ["--games", "1"]
    if command in ("simulate",) and "--size" not in argv:
        argv += ["--size", "3x3"]
    if command == "simulate" and "--timeout" not in argv:
        argv += ["--timeout", "2"]
    if command == "play" and "--size" not in argv:
        argv += ["--size", "3x3"]
    return argv


# --- how it is checked -------------------------------------------------------------------------

def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _allowed(argv: list[str]) -> set[str]:
    """The files a command line asks to write."""
    out = set()
    for flag in ("--out", "--transcript", "--resume"):
        if flag in argv and argv.index(flag) + 1 < len(argv):
            out.add(os.path.normpath(argv[argv.index(flag) + 1]))
    return out


def check(argv: list[str], files: dict[str, str], stdin: str = "") -> tuple[int, str, str]:
    """Run `main(argv)` in a fresh folder holding `files`; assert the contract; return results."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
        before = _snapshot(root)
        out, err = io.StringIO(), io.StringIO()
        old = os.getcwd(), sys.stdin, os.environ.get("XDG_DATA_HOME")
        os.chdir(root)
        os.environ["XDG_DATA_HOME"] = str(root / "data")
        sys.stdin = io.StringIO(stdin)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        finally:
            os.chdir(old[0])
            sys.stdin = old[1]
            if old[2] is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = old[2]
        after = _snapshot(root)
        changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
        text = err.getvalue()
    shown = f"argv={[a[:60] for a in argv]!r} stderr={text[-2000:]!r}"
    assert code in (0, 1, 2), shown
    assert "Traceback" not in text, shown
    if code == 2:
        assert text.count("\n") == 1 and text.endswith("\n"), shown
    allowed = _allowed(argv)
    stray = {c for c in changed
             if c not in allowed and not (argv[0] == "play" and c.startswith("data"))}
    assert not stray, f"{shown}: changed {sorted(stray)} without being asked"
    return code, out.getvalue(), text


# --- the fuzz tests -------------------------------------------------------------------------------

@FUZZ
@given(grid=grid_text(), target=grid_text(), argv=command_line("solve"))
def test_fuzz_solve(grid, target, argv):
    if any(a in EXPENSIVE for a in argv):
        return
    stdin = grid if "-" in argv else ""
    check(argv, {"grid.txt": grid, "t.txt": target}, stdin)


@FUZZ
@given(text=st.one_of(transcript_text(), hand_text(), st.text(max_size=80)),
       argv=command_line("replay"))
def test_fuzz_replay(text, argv):
    check(argv, {"t.txt": text, "grid.txt": "1 0\n0 1\n"}, stdin=text)


@FUZZ
@given(lines=st.lists(prompt_line, max_size=25), argv=command_line("play"),
       resume=st.one_of(transcript_text(), st.just("")))
def test_fuzz_play_prompt(lines, argv, resume):
    files = {"grid.txt": "my notes\nline two"}
    if resume:
        files["t.txt"] = resume
    check(argv, files, stdin="\n".join(lines) + "\n")


@FUZZ
@given(lines=st.lists(prompt_line, max_size=40), seed=st.integers(0, 50),
       size=st.sampled_from(["2x2", "3x3", "4x4", "3x5", "6x6"]))
def test_fuzz_simulated_game_at_the_prompt(lines, seed, size):
    """Mostly Enter (make the suggested click) with typed lines in between, to reach deep states."""
    argv = ["play", "--sim", "--seed", str(seed), "--size", size, "--transcript", "game.txt"]
    code, _out, _ = check(argv, {}, stdin="\n".join(lines) + "\n")
    assert code == 0


@FUZZ
@given(argv=command_line("simulate"))
def test_fuzz_simulate_options(argv):
    check(argv, {})


@FUZZ
@given(words=st.lists(st.one_of(token, st.sampled_from(["solve", "play", "replay", "simulate",
                                                         "help", "--help", "--version", "-h"])),
                      max_size=4))
def test_fuzz_any_words(words):
    if any(w in ("play",) for w in words) or words[:1] == ["simulate"]:
        words = [w for w in words if w not in ("play", "simulate")]
    check(words, {})
