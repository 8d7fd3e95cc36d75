"""A counted fuzz of the surface of issue 28: rule files, graph files, k-state grids, --to,
generate, practice, --image, --lang, simulate --jobs/--records/--scheduler, play --resume on odd
files and rules on the hidden game, with escape sequences, symbolic links, full disks, oversized
inputs and the engine's memory guard among the inputs.

Every case runs `countlo` in-process through `main(argv)` and must:
- return 0, 1, 2 or 130 (an exception out of `main` is counted as a traceback);
- on exit 2 print exactly one line on stderr;
- print no raw control character (newlines and tabs aside) on stdout or stderr;
- on exit 2 leave every file of its folder as it was (contents and links).

The suite runs CASES cases from a fixed seed (well under a minute). For a release run more:
`python tests/test_fuzz_surface.py --cases 10000 --seed 2028` prints the counts of each failure
kind (tracebacks, raw control characters, changed files on exit 2, bad stderr lines).
The size limits are lowered here (64 kB inputs, 8 MB of engine tables) so that oversized
inputs and the memory guard are met by small, fast cases.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import random
import shutil
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from countlo.printable import printable  # noqa: E402

CASES = 120
SEED = 28
ESC = ["\x1b]0;PWNED\x07", "\x1b[2J", "\r", "\x07", "\x9b31m", "\u202e", "\x00", "\x1b[31m"]
NUMS = ["0", "1", "2", "3", "5", "11", "255", "256", "-1", "²", "٣", "1_0", "", " 3", "9" * 30, "9" * 5000, "x"]
TOPOLOGIES = ["plane", "cylinder", "torus", "moebius", "klein", "projective", "", "x", "TORUS"]
RULES = ["plus", "x", "star", "ring", "knight", "rowcol", "sigma", "sigma+", "", "bogus"]
SIZES = ["3x3", "4x4", "2x5", "5x5", "3", "1x1", "0x3", "x", "4x6", "6x6", "5x8", "99999x2", "3x3\x1b[2J"]


def esc(rng: random.Random) -> str:
    return rng.choice(ESC) if rng.random() < 0.5 else ""


def grid(rng: random.Random, k: int = 2) -> str:
    rows, cols = rng.randint(1, 5), rng.randint(1, 5)
    if k > 10:
        body = [" ".join(rng.choice([str(rng.randrange(k)), rng.choice(NUMS)]) for _ in range(cols))
                for _ in range(rows)]
    else:
        body = ["".join(rng.choice("0123456789#.*" if k > 2 else "10#.") for _ in range(cols)) for _ in range(rows)]
    if rng.random() < 0.2:
        body[rng.randrange(rows)] += esc(rng) or rng.choice(NUMS)
    return "\n".join(body) + rng.choice(["\n", "", "\r\n"])


def graph(rng: random.Random) -> str:
    names = [rng.choice(["a", "b", "c", "d", "n1", "é", "节点"]) + esc(rng) for _ in range(rng.randint(1, 5))]
    lines = [" ".join(rng.sample(names, min(len(names), rng.randint(1, 2)))) for _ in range(rng.randint(1, 6))]
    if rng.random() < 0.2:
        lines.append(rng.choice(NUMS) + esc(rng))
    return "\n".join(lines) + "\n"


def states(rng: random.Random) -> str:
    names = ["a", "b", "c", "zz", "a\x1b[2J"]
    return " ".join(f"{rng.choice(names)}={rng.choice(NUMS)}" if rng.random() < 0.7 else rng.choice(names)
                    for _ in range(rng.randint(1, 4))) + "\n"


def rule_file(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "mask " + " ".join(f"{rng.choice(['-1', '0', '1', '٣', '9' * 40, ''])}:{rng.choice(['-1', '0', '1', 'x'])}"
                                  for _ in range(rng.randint(0, 5))) + esc(rng) + "\n"
    return "\n".join("".join(rng.choice("#.Oo x") for _ in range(3)) for _ in range(rng.randint(1, 4))) + "\n"


def transcript(rng: random.Random) -> bytes:
    whole = (ROOT / "transcripts" / "6x6-adaptive-seed1.txt").read_bytes()
    choice = rng.randrange(7)
    if choice == 0:
        return whole[: rng.randrange(len(whole))]  # cut anywhere (a crash mid-write)
    if choice == 1:
        return b"# just notes\n" + esc(rng).encode()
    if choice == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    if choice == 3:
        return whole.replace(b"# size: 6x6", b"# size: " + rng.choice([b"5x5", b"9x9", b"x", b"6x6"]))
    if choice == 4:
        return whole + ("B2 " + rng.choice(NUMS) + esc(rng) + "\n").encode()
    if choice == 5:
        return b"# countlo transcript 1\n# size: 3x3\n# rules: torus plus\n\nstart 4\n"
    return whole


PROGRAM = ("import sys\nsys.stderr.write('oops \\x1b]0;PWNED\\x07 \\x1b[2J\\n')\n"
           "print({start}, flush=True)\nfor line in sys.stdin:\n    print({answer}, flush=True)\n")


def case(rng: random.Random, d: Path) -> tuple[list[str], str | None]:
    """One command line (files written under d) and its standard input."""
    surface = rng.randrange(12)
    stdin: str | None = None
    lang = rng.choice([[], [], ["--lang", "zh"], ["--lang", "en"], ["--lang", rng.choice(["fr", "", "zh\x1b[2J"])]])

    def out_path(suffix: str = ".txt") -> str:
        kind = rng.randrange(8)
        if kind == 0:
            return str(d / "missing" / f"o{suffix}")
        if kind == 1:
            return str(d / "link") + suffix  # a symbolic link to a file that must stay
        if kind == 2:
            return str(d / "folder")
        if kind == 3 and os.path.exists("/dev/full"):
            return str(d / "full") + suffix
        if kind == 4:
            return ""
        return str(d / f"out{esc(rng)}{suffix}")

    if surface == 0:  # graph files
        (d / "g.txt").write_text(graph(rng))
        argv = ["solve", "--graph", str(d / "g.txt")]
        argv += rng.choice([["--all-on"], ["-"], ["--states", rng.choice(NUMS), "--all-on"], ["--rule", rng.choice(RULES), "-"]])
        stdin = states(rng)
        if rng.random() < 0.3:
            argv += ["--out", out_path()]
    elif surface == 1:  # rule files
        (d / "rule.txt").write_text(rule_file(rng))
        argv = ["solve", "--rule", str(d / "rule.txt"), "--size", rng.choice(SIZES), "--lit", rng.choice(["1", "1,2", "5" + esc(rng)])]
    elif surface == 2:  # k-state grids
        k = rng.choice([2, 3, 5, 11, 13])
        (d / "b.txt").write_text(grid(rng, k))
        argv = ["solve", "--states", rng.choice([str(k), rng.choice(NUMS)]), str(d / "b.txt")]
        argv += rng.choice([[], ["--min"], ["--all"], ["--json"], ["--topology", rng.choice(TOPOLOGIES)]])
    elif surface == 3:  # --to
        (d / "a.txt").write_text(grid(rng))
        (d / "t.txt").write_text(grid(rng))
        argv = ["solve", str(d / "a.txt"), "--to", rng.choice([str(d / "t.txt"), str(d / "nope.txt"), str(d / "big.txt")])]
        if rng.random() < 0.5:
            argv += ["--out", out_path()]
    elif surface == 4:  # generate
        argv = ["generate", "--size", rng.choice(SIZES[:8]), "--seed", rng.choice(NUMS[:12]), "--count", rng.choice(["1", "2", "0", "²"])]
        argv += rng.choice([[], ["--json"], ["--states", rng.choice(NUMS)], ["--topology", rng.choice(TOPOLOGIES)],
                            ["--to", str(d / "big.txt")], ["--rule", rng.choice(RULES)]])
    elif surface == 5:  # practice
        argv = ["practice", "--size", rng.choice(SIZES[:8])]
        argv += rng.choice([["--seed", rng.choice(NUMS)], [], ["--states", rng.choice(["3", "2", "٣"])], [str(d / "big.txt")]])
        stdin = "\n".join(rng.choice(["hint", "undo", "A1", "B2", "help", "quit", "x" * rng.choice([10, 5000]), esc(rng) + "C3"])
                          for _ in range(rng.randint(0, 6))) + "\n"
    elif surface == 6:  # --image
        (d / "a.txt").write_text(grid(rng))
        target = out_path(rng.choice([".png", ".svg", ".gif"]))
        roll = rng.random()
        if roll < 0.35:
            argv = ["solve", str(d / "a.txt"), "--image", target]
            if rng.random() < 0.5:
                argv += ["--out", out_path()]
        elif roll < 0.7:  # a graph drawn with its node names (escape sequences in them too)
            (d / "g.txt").write_text(graph(rng))
            argv = ["solve", "--graph", str(d / "g.txt"), "--image", target]
            argv += rng.choice([["--all-on"], ["--all-on", "--states", rng.choice(["3", "2", "5"])],
                                ["--all-on", "--quiet"], ["--lit", "a"]])
        else:
            argv = ["replay", str(ROOT / "transcripts" / "6x6-adaptive-seed1.txt"), "--image", target]
    elif surface in (7, 8):  # simulate
        argv = ["simulate", "--size", rng.choice(["3x3", "4x4", "3x4", "2x2"]), "--games", rng.choice(["1", "2", "3"]),
                "--seed", rng.choice(["0", "7", "-3", "²"])]
        options = rng.sample(["jobs", "records", "scheduler", "rules", "oracle", "json"], rng.randint(0, 3))
        if "jobs" in options:
            argv += ["--jobs", rng.choice(["1", "1", "2", "0", "1000000", "٢", ""])]
        if "records" in options:
            argv += ["--records", out_path(".jsonl")]
        if "scheduler" in options and "jobs" not in options:
            argv += ["--scheduler", rng.choice(["bogus://x", "tcp://10.0.0.5:8786", "", "ucx://x:1", "tls://127.0.0.1:1",
                                                "tcp://127.0.0.1:1\x1b[2J"])]
        if "rules" in options:
            argv += ["--topology", rng.choice(TOPOLOGIES[:6]), "--rule", rng.choice(RULES[:6])]
        if "oracle" in options:
            (d / "game.py").write_text(PROGRAM.format(start=rng.choice([0, 4, 9]), answer=rng.choice([1, 4, 9, 99])))
            argv += ["--oracle-cmd", f"{sys.executable} {d / 'game.py'}", "--timeout", "5"]
        if "json" in options:
            argv += ["--json"]
    elif surface == 9:  # play --resume on odd files
        (d / "r.txt").write_bytes(transcript(rng))
        argv = ["play", "--resume", rng.choice([str(d / "r.txt"), str(d / "r.txt"), str(d / "folder"), str(d / "link")])]
        argv += rng.choice([[], ["--size", rng.choice(SIZES)], ["--topology", rng.choice(TOPOLOGIES)], ["--sim"], ["--states", "3"]])
        stdin = rng.choice(["", "quit\n", "B2 17\n", esc(rng) + "\n"])
    elif surface == 10:  # rules on the hidden game (the engine's memory guard lowered)
        argv = ["play", "--sim", "--plain", "--seed", rng.choice(["1", "2", "3"]), "--size", rng.choice(["3x3", "4x4", "5x5", "5x8", "6x7"]),
                "--topology", rng.choice(TOPOLOGIES[:6]), "--rule", rng.choice(RULES[:5]), "--transcript", str(d / "p.txt")]
        stdin = "\n".join(rng.choice(["", "next", "hint", "undo", "quit"]) for _ in range(rng.randint(0, 8))) + "\n"
    else:  # replay of odd files and standard input
        (d / "r.txt").write_bytes(transcript(rng))
        argv = ["replay", rng.choice([str(d / "r.txt"), "-", str(d / "big.txt"), str(d / ("name" + esc(rng)))])]
        argv += rng.choice([[], ["--json"], ["--explain"], ["--engine", rng.choice(["exact", "linear", "z3", "x"])]])
        stdin = transcript(rng).decode("utf-8", "replace")
    return lang + argv, stdin


def snapshot(d: Path) -> dict[str, str]:
    out = {}
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            p = Path(root) / name
            if p.is_symlink():
                out[str(p)] = "-> " + os.readlink(p)
            elif p.is_file():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


class _Input(io.StringIO):
    def isatty(self) -> bool:
        return False


def prepare(d: Path) -> None:
    """What every case finds in its folder: a precious file behind a link, a folder, a file
    above the (lowered) input limit, and links to /dev/full."""
    (d / "precious.txt").write_text("keep me\n")
    for suffix in ("", ".txt", ".png", ".svg", ".gif", ".jsonl"):
        os.symlink(d / "precious.txt", str(d / "link") + suffix)
        if os.path.exists("/dev/full"):
            os.symlink("/dev/full", str(d / "full") + suffix)
    (d / "folder").mkdir()
    (d / "big.txt").write_text("#." * 40_000 + "\n")


def run_case(argv: list[str], stdin: str | None, d: Path) -> tuple[int | None, str, str, str | None]:
    """(exit code or None, stdout, stderr, traceback text or None) of one in-process run."""
    from countlo.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, os.getcwd()
    sys.stdin = _Input(stdin or "")
    os.chdir(d)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        return code, out.getvalue(), err.getvalue(), None
    except SystemExit as e:
        return (e.code if isinstance(e.code, int) else 2), out.getvalue(), err.getvalue(), None
    except BaseException:
        return None, out.getvalue(), err.getvalue(), traceback.format_exc()
    finally:
        sys.stdin = saved[0]
        os.chdir(saved[1])


def lowered_limits() -> contextlib.ExitStack:
    """Input limits of 64 kB and engine tables of 8 MB, and a 0.3 s scheduler timeout."""
    import countlo.cli.cluster as cluster
    import countlo.formats.text as text
    import countlo.hidden.posterior.sparse as sparse

    stack = contextlib.ExitStack()
    for module, name, value in ((text, "BOARD_BYTES", 64 << 10), (text, "TRANSCRIPT_BYTES", 64 << 10),
                                (sparse, "TABLE_BYTES", 8 << 20), (cluster, "CONNECT_SECONDS", 0.3)):
        old = getattr(module, name)
        setattr(module, name, value)
        stack.callback(setattr, module, name, old)
    return stack


def fuzz(cases: int, seed: int, report=None, every: int = 0) -> Counter:
    """Run `cases` generated cases from `seed`; the count of each kind of failure (and of runs),
    printed every `every` cases when that is not 0."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    environ = dict(os.environ)
    with lowered_limits(), tempfile.TemporaryDirectory() as top:
        os.environ["XDG_DATA_HOME"] = str(Path(top) / "data")
        os.environ.pop("COLUMNS", None)
        try:
            for i in range(cases):
                d = Path(top) / f"case{i}"
                d.mkdir()
                prepare(d)
                argv, stdin = case(rng, d)
                before = snapshot(d)
                code, out, err, tb = run_case(argv, stdin, d)
                counts["runs"] += 1
                counts[f"exit {code}"] += 1
                problems = []
                if tb is not None:
                    problems.append("traceback")
                elif code not in (0, 1, 2, 130):
                    problems.append("exit code")
                if code == 2 and err.count("\n") != 1:
                    problems.append("stderr not one line")
                if "Traceback" in out + err:
                    problems.append("traceback")
                if printable(out + err, lines=True) != out + err:
                    problems.append("raw control characters")
                if code == 2 and snapshot(d) != before:
                    problems.append("changed files on exit 2")
                for p in problems:
                    counts[p] += 1
                if every and (i + 1) % every == 0:
                    print({k: counts[k] for k in ("runs", *FAILURES)}, flush=True)
                shutil.rmtree(d, ignore_errors=True)
                if problems and report is not None:
                    report(f"case {i}: {problems}: {argv!r} stdin={stdin!r:.80}\n{(tb or err)[-600:]}")
        finally:
            os.environ.clear()
            os.environ.update(environ)
    return counts


FAILURES = ("traceback", "exit code", "stderr not one line", "raw control characters", "changed files on exit 2")


def test_the_counted_fuzz_of_the_new_surface_finds_nothing():
    found: list[str] = []
    counts = fuzz(CASES, SEED, found.append)
    assert counts["runs"] == CASES
    assert not any(counts[k] for k in FAILURES), "\n\n".join(found[:5])


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the counted fuzz of issue 28's surface, larger")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=SEED)
    options = parser.parse_args()
    shown = [0]

    def report(text: str) -> None:
        if shown[0] < 20:
            print(text, file=sys.stderr)
        shown[0] += 1

    result = fuzz(options.cases, options.seed, report, every=500)
    print({k: result[k] for k in ("runs", *FAILURES)}, dict(sorted((k, v) for k, v in result.items() if k.startswith("exit"))))
