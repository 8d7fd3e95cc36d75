"""`countlo replay`, and the example transcripts in transcripts/.

The golden results in tests/data/replay/*.json were written once by `countlo replay --json`
(see test_golden_results) and checked by eye against the grids `countlo replay` prints; the
examples themselves are regenerated from their seeds in test_examples_are_what_the_library_plays.
"""

import importlib.util
import json
import random

import pytest
from conftest import DATA, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from countlo.board import Shape, popcount
from countlo.formats import hand as formats
from countlo.hidden.rebuild import Status, reconstruct
from countlo.hidden.record import Record, Step, record_of
from countlo.play import review as explain
from countlo.visible.bitsets import fewest_presses
from countlo.visible.engines.polynomial_chase import solve

TRANSCRIPTS = sorted(p for p in (ROOT / "transcripts").iterdir()
                     if p.is_file() and p.suffix not in (".md", ".py"))
GOLDEN = DATA / "replay"


def _make_examples():
    spec = importlib.util.spec_from_file_location("make_examples",
                                                  ROOT / "transcripts" / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MADE = _make_examples().examples()
EXAMPLES = [ROOT / "transcripts" / name for name in sorted(MADE)]


def test_examples_are_what_the_library_plays():
    for p in EXAMPLES:
        assert p.read_text(encoding="utf-8") == MADE[p.name], p.name


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_every_transcript_replays_to_its_golden_result(run_cli, path):
    """Golden files: `python -m countlo replay --json FILE > tests/data/replay/NAME.json`, checked
    by eye. Every made example has one; a transcript added without one must still replay."""
    res = run_cli(["replay", "--json", str(path.relative_to(ROOT))])
    result = json.loads(res.stdout)
    assert result["status"] in ("determined", "ambiguous", "contradictory"), res.stderr
    assert res.returncode == (1 if result["status"] == "contradictory" or result["clearable"] is False else 0)
    golden = GOLDEN / (path.stem + ".json")
    if path in EXAMPLES or golden.exists():
        assert result == json.loads(golden.read_text())


def _hidden(shape, seed):
    return random.Random(seed).getrandbits(shape.cells)


def test_examples_rebuild_their_seeded_board():
    """Independently of the golden files: each consistent example rebuilds its seed's board."""
    for path in EXAMPLES:
        if path.name == "typo-impossible-6x6.txt":
            continue  # does not read as a record: tested in test_cli_typo_exits_1_with_line
        t = formats.load(path)
        seed = t.header.seed
        if seed is None:
            seed = {"rows-6x6.txt": 1, "restore-6x6.txt": 2}[path.name]
        rec = reconstruct(t.record)
        if path.name.startswith("typo"):
            assert rec.status is Status.CONTRADICTORY
        elif path.name.startswith("ambiguous"):
            assert rec.status is Status.AMBIGUOUS and rec.possible > 1
            assert t.record.consistent(_hidden(t.shape, seed))
        else:
            assert rec.board == _hidden(t.shape, seed), path.name


def test_finish_plan_clears_with_fewest_clicks_and_predicts_every_count():
    for seed in range(8):
        shape = Shape(6, 6)
        board = _hidden(shape, 100 + seed)
        clicks = list(range(36))
        random.Random(seed).shuffle(clicks)
        rec = record_of(shape, board, clicks)
        r = explain.replay(rec, tuple(range(1, 38)))
        assert r.status == "determined" and r.start == board
        lights = rec.lights(board)
        assert len(r.finish) == popcount(fewest_presses(shape, lights)[0])
        for f in r.finish:
            lights = shape.press(lights, f.cell)
            assert popcount(lights) == f.count
        assert lights == 0 and (not r.finish or r.finish[-1].count == 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_replay_agrees_with_brute_force_on_small_boards(rows, cols, data):
    shape = Shape(rows, cols)
    board = data.draw(st.integers(0, shape.full))
    clicks = data.draw(st.lists(st.integers(0, shape.cells - 1), max_size=2 * shape.cells))
    rec = record_of(shape, board, clicks)
    r = explain.replay(rec, tuple(range(1, len(clicks) + 2)))
    # shown[b]: how many of the record's counts start b would have shown before the first
    # difference (one pass per start; prefix n fits b iff shown[b] > n)
    counts = [rec.start, *(s.count for s in rec.steps)]
    shown = []
    for b in range(1 << shape.cells):
        lights, n = b, 0
        while n < len(counts) and popcount(lights) == counts[n]:
            if n < len(clicks):
                lights = shape.press(lights, clicks[n])
            n += 1
        shown.append(n)
    fits = [b for b, n in enumerate(shown) if n == len(counts)]
    if len(fits) == 1:
        assert r.status == "determined" and r.start == board
        first = next(n for n in range(len(clicks) + 1) if sum(m > n for m in shown) == 1)
        assert r.determined_after == first
        lights = rec.lights(board)
        if solve(shape, lights).solvable:
            assert r.clearable and shape.press_all(lights, sum(1 << f.cell for f in r.finish)) == 0
        else:
            assert not r.clearable and popcount(r.witness & lights) % 2 == 1
            assert all(popcount(shape.press_mask(k) & r.witness) % 2 == 0 for k in range(shape.cells))
    else:
        assert r.status == "ambiguous" and r.possible == len(fits)
        for k, p in enumerate(r.marginals):
            assert p == pytest.approx(sum(b >> k & 1 for b in fits) / len(fits))


def test_a_typo_is_found_at_its_line():
    shape = Shape(6, 6)
    board = _hidden(shape, 21)
    rec = record_of(shape, board, list(range(36)))
    for step, change in ((3, -2), (30, 2)):
        counts = rec.counts
        s = rec.steps[step - 1]
        for wrong in (s.count + change,):
            steps = list(rec.steps)
            steps[step - 1] = Step(s.cell, wrong)
            try:
                bad = Record(shape, rec.start, tuple(steps))
            except Exception:
                continue
            lines = tuple(range(10, 10 + len(counts)))
            r = explain.replay(bad, lines)
            assert r.status == "contradictory"
            assert (lines[step], step, wrong, s.count) in [
                (t.line, t.step, t.written, t.suggested) for t in r.typos]
            assert r.stops_at >= step


# --- the command line -------------------------------------------------------------------------

def test_cli_text_output_for_a_determined_game(run_cli):
    res = run_cli(["replay", "transcripts/sequential-6x6.txt"])
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "known after step 29 (line 37: E5 -> 19)" in out
    lines = out.splitlines()
    top = next(i for i, ln in enumerate(lines) if ln.startswith("hidden start"))
    assert lines[top + 1].split() == list("ABCDEF") * 3
    grid = [ln.split()[1:7] for ln in lines[top + 2: top + 8]]
    shown = sum(1 << k for k, ch in enumerate(ch for row in grid for ch in row) if ch == "#")
    assert shown == _hidden(Shape(6, 6), 3)
    assert out.rstrip().endswith("-> 0")


def test_cli_json(run_cli):
    res = run_cli(["replay", "--json", "transcripts/rows-6x6.txt"])
    assert res.returncode == 0
    j = json.loads(res.stdout)
    shape = Shape(6, 6)
    start = sum(v << (r * 6 + c) for r, row in enumerate(j["start"]) for c, v in enumerate(row))
    assert start == _hidden(shape, 1)
    assert (j["rows"], j["cols"], j["status"], j["determined_after"]) == (6, 6, "determined", 29)
    lights = record_of(shape, start, list(range(36))).lights(start)
    presses = sum(1 << ((r - 1) * 6 + c - 1) for r, c in j["finish"])
    assert shape.press_all(lights, presses) == 0
    assert j["typo"] == [] and j["possible"] == 1


def test_cli_explain_walks_every_step(run_cli):
    res = run_cli(["replay", "--explain", "transcripts/sequential-6x6.txt"])
    assert res.returncode == 0
    text = res.stdout.splitlines()
    head = next(i for i, ln in enumerate(text) if ln.startswith("step  line"))
    rows = text[head + 1: head + 38]
    assert [int(r.split()[0]) for r in rows] == list(range(37)) and not text[head + 38]
    assert "<- known" in rows[29] and rows[29].split()[0] == "29"
    assert sum("<-" in r for r in rows) == 1
    # every implied "lit in N(k) before" is true of the seeded board, and the counts of boards
    # left match a direct count over the boards consistent with each prefix (checked by Posterior)
    shape, board = Shape(6, 6), _hidden(Shape(6, 6), 3)
    rec = record_of(shape, board, list(range(36)))
    lights = board
    for i, row in enumerate(rows[1:], 1):
        cols = row.replace("<- known", "").split()
        _step, click, count, lit, _of, around, known, left = cols[0], cols[2], cols[3], *cols[5:10]
        k = shape.parse_cell(click)
        assert int(lit) == popcount(lights & shape.press_mask(k)) and int(around) == len(
            shape.neighbours(k))
        lights = shape.press(lights, k)
        assert int(count) == popcount(lights) == rec.counts[i]
        assert (int(known) == 36) == (int(left) == 1) and int(left) >= 1


def test_cli_typo_exits_1_with_line(run_cli):
    res = run_cli(["replay", "transcripts/typo-6x6.txt"])
    assert res.returncode == 1
    assert "Most likely typo: line 20 (step 12): written 14, probably 16." in res.stdout
    assert "If line 20 should read 16:" in res.stdout and res.stdout.rstrip().endswith("-> 0")
    for name, seed in (("typo-6x6.txt", 5), ("typo-impossible-6x6.txt", 6)):
        j = json.loads(run_cli(["replay", "--json", f"transcripts/{name}"]).stdout)
        fixed = j["corrected"]["start"]
        start = sum(v << (r * 6 + c) for r, row in enumerate(fixed) for c, v in enumerate(row))
        assert start == _hidden(Shape(6, 6), seed), name
    res = run_cli(["replay", "--json", "transcripts/typo-impossible-6x6.txt"])
    assert res.returncode == 1
    j = json.loads(res.stdout)
    assert j["status"] == "contradictory" and j["start"] is None
    assert j["typo"][0] == {"line": 28, "step": 20, "written": 22, "suggested": 21}


def test_cli_malformed_exits_2_with_every_line(run_cli_process, tmp_path):
    """End to end in a child process: bad input is one line per problem, exit 2, no traceback."""
    bad = tmp_path / "bad.txt"
    bad.write_text("# countlo transcript 1\n# size: 6x6\nstart 18\nC4\nZ9 3\nundo\nundo\nundo\n")
    res = run_cli_process(["replay", str(bad)])
    assert res.returncode == 2
    lines = res.stdout.strip().splitlines()
    assert [ln.split(":")[1] for ln in lines] == ["4", "5", "8"]  # two undos take back 4 and 5
    assert res.stderr.count("\n") == 1 and "(and 2 more problems, listed on" in res.stderr
    assert "Traceback" not in res.stderr
    res = run_cli_process(["replay", "--json", str(bad)])
    assert res.returncode == 2 and json.loads(res.stdout)["status"] == "malformed"
    res = run_cli_process(["replay", str(tmp_path / "missing.txt")])
    assert res.returncode == 2 and "cannot read" in res.stderr


def test_cli_ambiguous_exits_0_with_probabilities(run_cli):
    res = run_cli(["replay", "transcripts/ambiguous-6x6.txt"])
    assert res.returncode == 0
    assert "boards fit these counts" in res.stdout and "100" in res.stdout
    assert res.stdout.rstrip().endswith("countlo play --resume transcripts/ambiguous-6x6.txt")


def test_cli_unclearable_board_gives_the_quiet_pattern(run_cli):
    res = run_cli(["replay", "transcripts/unclearable-5x5.txt"])
    assert res.returncode == 1  # as solve exits for an unsolvable board
    assert "can never all be turned off" in res.stdout and "quiet pattern" in res.stdout


def test_cli_format_option_and_engines_agree(run_cli):
    base = json.loads(run_cli(["replay", "--json", "--format", "rows",
                               "transcripts/rows-6x6.txt"]).stdout)
    assert base.pop("engine") == "exact"
    for engine in ("linear", "z3"):
        res = run_cli(["replay", "--json", "--engine", engine, "transcripts/rows-6x6.txt"])
        assert res.returncode == 0, res.stderr
        j = json.loads(res.stdout)
        assert j.pop("engine") == engine and j == base
    res = run_cli(["replay", "--format", "restore", "transcripts/rows-6x6.txt"])
    assert res.returncode == 2


def test_cli_wide_boards_use_the_linear_engine(run_cli, tmp_path):
    from countlo.formats.transcript import Header, Writer

    shape = Shape(10, 10)
    board = _hidden(shape, 88)
    rec = record_of(shape, board, list(range(shape.cells)))
    path = tmp_path / "big.txt"
    with Writer.create(str(path), Header(shape)) as w:
        w.start(rec.start)
        for s in rec.steps:
            w.step(s.cell, s.count)
    res = run_cli(["replay", "--json", str(path)])
    assert res.returncode == 0, res.stderr
    j = json.loads(res.stdout)
    assert j["engine"] == "linear" and j["status"] == "determined" and j["clearable"]
    start = sum(v << (r * 10 + c) for r, row in enumerate(j["start"]) for c, v in enumerate(row))
    assert start == board
    presses = sum(1 << ((r - 1) * 10 + c - 1) for r, c in j["finish"])
    assert shape.press_all(rec.lights(board), presses) == 0


@pytest.mark.parametrize("body, code, expect", [
    ("start 0\n", 0, "all out: this game is won"),
    ("start 36\n", 0, "known from the starting count alone"),
    ("start 40\n", 1, "starting count 40 is impossible"),
    ("start 18\nA1 40\n", 1, "probably 21"),
    ("", 2, "no 'start COUNT' line"),
])
def test_cli_edge_cases_from_stdin(run_cli, body, code, expect):
    res = run_cli(["replay", "-"], input="# countlo transcript 1\n# size: 6x6\n" + body)
    assert res.returncode == code, res.stderr
    assert expect in res.stdout + res.stderr


def test_a_mistyped_start_in_the_restore_format_is_found(run_cli, tmp_path):
    from countlo.formats.hand import dumps_restore

    shape = Shape(6, 6)
    board = _hidden(shape, 2)
    rec = record_of(shape, board, [k for k in range(36) for _ in (0, 1)])
    lines = dumps_restore(rec).split("\n")
    lines[0] = str(rec.start + 10)
    path = tmp_path / "counts.txt"
    path.write_text("\n".join(lines))
    res = run_cli(["replay", "--json", str(path)])
    assert res.returncode == 1
    j = json.loads(res.stdout)
    assert j["typo"][0] == {"line": 1, "step": 0, "written": rec.start + 10, "suggested": rec.start}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(MADE)), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6),
                                                         st.sampled_from(["undo", "fix 3 10", "A1 5",
                                                                          "start 4", "12", "3 4"])),
                                               min_size=1, max_size=3))
def test_replay_of_mutated_examples_never_crashes(name, mutations):
    """Whatever a mutated example holds, replay reports it (or the reader names bad lines)."""
    from countlo.cli.replay import as_json, render
    from countlo.errors import TranscriptError
    from countlo.formats.transcript import ImpossibleCountsError

    lines = MADE[name].split("\n")
    for op, where, piece in mutations:
        i = where % len(lines)
        if op == 0:
            lines[i] = "".join(str((int(ch) + 1 + where % 9) % 10) if ch.isdigit() else ch
                               for ch in lines[i])
        elif op == 1:
            del lines[i]
            lines = lines or [""]
        elif op == 2:
            lines.insert(i, piece)
        else:
            j = (where // 7) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
    try:
        t = formats.parse("\n".join(lines), "mutated")
    except ImpossibleCountsError as e:
        tape = e.tape
        start, steps = tape.parsed()
        r = explain.replay_impossible(tape.shape, [s.cell for s in steps],
                                      [start] + [s.count for s in steps], tape.count_lines)
    except TranscriptError as e:
        assert e.problems and all(n >= 1 for n, _ in e.problems)
        return
    else:
        if t.record is None:
            return
        r = explain.replay(t.record, t.count_lines)
    assert render(r, "mutated") and as_json(r)["status"] == r.status
    if r.status == "contradictory" and r.corrected is not None:
        assert r.corrected.status != "contradictory"


SESSION_GAMES = sorted((ROOT / "transcripts").glob("6x6-*-seed*.txt"))


@pytest.mark.parametrize("path", SESSION_GAMES, ids=lambda p: p.name)
def test_session_games_rebuild_the_simulated_board_and_end_dark(path):
    """The guided games saved by `countlo play --sim` rebuild their seed's hidden board and end at 0."""
    from countlo.play.oracle import SimulatedOracle

    assert (GOLDEN / (path.stem + ".json")).exists(), "every saved session game has a golden result"
    t = formats.load(path)
    assert t.header.strategy and path.stem.split("-")[1] == t.header.strategy
    board = SimulatedOracle(t.header.shape, seed=t.header.seed).board
    rec = reconstruct(t.record)
    assert rec.status is Status.DETERMINED and rec.board == board
    assert t.record.lights(board) == 0 and t.record.count == 0


def test_a_file_that_is_no_transcript_lists_a_bounded_number_of_problems(tmp_path, capsys):
    """Issue 26 item 9: 'replay README.md' printed 1,278 problem lines; now the first LISTED,
    then one line saying how many more, and asking whether it is a transcript."""
    from countlo.cli.main import main
    from countlo.cli.replay import LISTED

    path = tmp_path / "notes.txt"
    path.write_text("\n".join(f"line {i} of prose, not a count" for i in range(300)) + "\n")
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == LISTED + 1 and "more problems not listed; is it a transcript?" in lines[-1]
    assert f"the first {LISTED} on standard output" in err and len(err.splitlines()) == 1


def test_a_partial_rows_table_replays_on_the_size_given(run_cli, tmp_path):
    """Issue 26, item 9: the notes of a game in progress (3 of 6 rows) replayed as a 3x6 board
    and said the counts contradict, with --size 6x6 silently ignored."""
    lines = [x for x in (ROOT / "transcripts" / "rows-6x6.txt").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    part = tmp_path / "part.txt"
    part.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")  # the start and three rows
    res = run_cli(["replay", "--json", "--size", "6x6", str(part)])
    j = json.loads(res.stdout)
    assert res.returncode == 0 and (j["rows"], j["cols"], j["status"]) == (6, 6, "ambiguous")
    hidden = _hidden(Shape(6, 6), 1)
    first = [[hidden >> (r * 6 + c) & 1 for c in range(6)] for r in range(6)]
    sure = [(r, c) for r in range(6) for c in range(6) if j["probabilities"][r][c] in (0.0, 1.0)]
    assert sure and all(j["probabilities"][r][c] == first[r][c] for r, c in sure)
    res = run_cli(["replay", "--size", "5x6", str(part)])  # the size given is the one replayed
    assert res.returncode == 0 and res.stdout.startswith(f"{part}: 5x6 board, starting count 18, 18 clicks")
    res = run_cli(["replay", str(part)])  # without a size the table is the board, and it contradicts
    assert res.returncode == 1 and "no 3x6 board shows these counts" in res.stdout
    res = run_cli(["replay", "--size", "2x6", str(part)])
    assert res.returncode == 2 and "a 2x6 board has 2 rows; found 3 lines of counts" in res.stdout + res.stderr
