"""`countlo generate`: uniform over the solvable boards (chi-square, fixed seeds so it cannot
flake), exact fewest-press counts checked with the solver, bands, output `solve` reads."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from countlo.board import Shape
from countlo.board import bits as pack
from countlo.cli.main import main
from countlo.visible.bitsets import fewest_presses
from countlo.visible.engines.polynomial_chase import rows_clear, solve
from countlo.visible.generate import BitsetGenerator as Generator
from countlo.visible.generate import NoSuchBoardError, band, lights_of


def chi_square_limit(dof: int, z: float = 3.72) -> float:
    """The chi-square value exceeded with probability about 1e-4 (Wilson-Hilferty)."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


def chi_square(counts: Counter, support: list[int], draws: int) -> float:
    assert set(counts) <= set(support), "a board outside the support was drawn"
    e = draws / len(support)
    return sum((counts.get(b, 0) - e) ** 2 / e for b in support)


def all_lights(shape: Shape) -> dict[int, int]:
    """Every solvable board of a small shape -> its fewest-press count (brute force over every
    press set)."""
    best: dict[int, int] = {}
    for x in range(1 << shape.cells):
        b = shape.from_rows(lights_of(shape, shape.to_rows(x)))
        w = x.bit_count()
        if w < best.get(b, shape.cells + 1):
            best[b] = w
    return best


def test_lights_of_is_the_press_matrix():
    shape = Shape(4, 5)
    rng = random.Random(0)
    for _ in range(50):
        x = rng.getrandbits(shape.cells)
        assert shape.from_rows(lights_of(shape, shape.to_rows(x))) == shape.press_all(0, x)


@pytest.mark.parametrize("size, per_board", [("3x3", 40), ("4x4", 12)])
def test_uniform_over_the_solvable_boards(size, per_board):
    shape = Shape.parse(size)
    support = sorted(all_lights(shape))  # 3x3: all 512; 4x4: 4096 of 65536 (nullity 4)
    gen = Generator(shape, random.Random(20261123))
    draws = per_board * len(support)
    counts = Counter(pack(gen.uniform().lights) for _ in range(draws))
    assert chi_square(counts, support, draws) < chi_square_limit(len(support) - 1)


def test_the_chi_square_check_catches_random_click_sequences():
    """The biased method the issue warns about (k random clicks) fails the same test."""
    shape = Shape(3, 3)
    rng = random.Random(1)
    draws = 40 * 512
    counts = Counter()
    for _ in range(draws):
        b = 0
        for _ in range(9):
            b = shape.press(b, rng.randrange(9))
        counts[b] += 1
    assert chi_square(counts, list(range(512)), draws) > chi_square_limit(511)


def test_exactly_n_is_uniform_among_those_boards_on_a_board_with_quiet_patterns():
    shape = Shape(4, 4)
    fewest = all_lights(shape)
    for n in (3, 5):
        support = sorted(b for b, w in fewest.items() if w == n)
        gen = Generator(shape, random.Random(n))
        draws = 8 * len(support)
        counts = Counter()
        for _ in range(draws):
            g = gen.exactly(n)
            b = pack(g.lights)
            counts[b] += 1
        assert chi_square(counts, support, draws) < chi_square_limit(len(support) - 1)
    # and the plain sampler's fewest counts are right
    gen = Generator(shape, random.Random(2))
    for _ in range(200):
        g = gen.uniform()
        assert g.fewest == fewest[pack(g.lights)]


@pytest.mark.parametrize("size", ["5x5", "6x6", "4x4", "3x7", "9x9"])
def test_every_board_has_the_fewest_count_the_solver_finds(size):
    shape = Shape.parse(size)
    gen = Generator(shape, random.Random(5))
    for difficulty in ("easy", "medium", "hard"):
        lo, hi = band(shape, difficulty)
        for _ in range(6):
            g = gen.in_band(difficulty)
            bits = pack(g.lights)
            best, exact = fewest_presses(shape, bits)
            assert exact and best.bit_count() == g.fewest and lo <= g.fewest <= hi
            assert g.presses is not None
            assert rows_clear(shape.to_rows(pack(g.lights)), shape.to_rows(pack(g.presses)), shape.cols)
    for n in (1, 4, 9) if gen.nullity == 0 else (1, 4):  # 4x4 never needs more than 8 or so
        g = gen.exactly(n)
        best, exact = fewest_presses(shape, pack(g.lights))
        assert exact and best.bit_count() == n == g.fewest


def test_bands_are_as_documented():
    assert [band(Shape(5, 5), d) for d in ("easy", "medium", "hard")] == [(1, 4), (5, 8), (9, 25)]
    assert [band(Shape(6, 6), d) for d in ("easy", "medium", "hard")] == [(1, 5), (6, 11), (12, 36)]
    assert [band(Shape(7, 7), d) for d in ("easy", "medium", "hard")] == [(1, 7), (8, 15), (16, 49)]


def boards_of(text: str) -> list[tuple[int | None, str]]:
    """(fewest from the comment, grid text) of each board in generate's text output."""
    out: list[tuple[int | None, str]] = []
    for block in text.split("\n\n"):
        lines = [ln for ln in block.splitlines() if not ln.startswith("# countlo")]
        head, grid = lines[0], "\n".join(lines[1:]) + "\n"
        assert head.startswith("# board ")
        out.append((int(head.rsplit(" ", 1)[1]) if "fewest" in head else None, grid))
    return out


def test_cli_boards_are_checked_with_solve_min(capsys, tmp_path):
    assert main(["generate", "--size", "5x5", "--count", "12", "--difficulty", "medium",
                 "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# countlo generate: 12 5x5 boards, medium, seed 7\n")
    boards = boards_of(text)
    assert len(boards) == 12
    for i, (fewest, grid) in enumerate(boards):
        assert fewest is not None and 5 <= fewest <= 8
        f = tmp_path / f"b{i}.txt"
        f.write_text(grid)
        assert main(["solve", str(f), "--min", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["count"] == fewest and out["exact"] is True
    # the whole output, header and comments included, is a grid solve reads (with --count 1)
    assert main(["generate", "--size", "6x6", "--presses", "10", "--seed", "3"]) == 0
    f = tmp_path / "one.txt"
    f.write_text(capsys.readouterr().out)
    assert main(["solve", str(f), "--min", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 10


def test_cli_json_and_seed_reproducible(capsys):
    args = ["generate", "--size", "4x5", "--count", "5", "--seed", "11", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    shape = Shape(4, 5)
    for i, line in enumerate(first.splitlines(), 1):
        g = json.loads(line)
        assert (g["rows"], g["cols"], g["seed"], g["index"]) == (4, 5, 11, i)
        lights = shape.from_rows([sum(v << c for c, v in enumerate(r)) for r in g["lights"]])
        presses = sum(1 << ((r - 1) * 5 + c - 1) for r, c in g["presses"])
        assert shape.press_all(lights, presses) == 0 and presses.bit_count() == g["fewest"]
        assert solve(shape, lights).solvable


@pytest.mark.parametrize("args, code, message", [
    (["--size", "5x5", "--presses", "26"], 2, "needs 1 to 25 presses"),
    (["--size", "4x4", "--presses", "14", "--seed", "1"], 1, "no 4x4 board needs exactly 14 presses: the hardest solvable boards need 7 presses"),
    (["--size", "1x1", "--difficulty", "hard"], 1, "has no hard boards"),
    (["--size", "30x30", "--difficulty", "easy"], 2, "nullity 20"),
    (["--size", "5000x5000"], 2, "at most 16,777,216 cells"),
    (["--size", "5x5", "--count", "0"], 2, "expected 1..1000000, not 0"),
    (["--size", "5x5", "--presses", "3", "--difficulty", "easy"], 2, "not allowed with"),
])
def test_cli_refusals(run_cli, args, code, message):
    res = run_cli(["generate", *args])
    assert res.returncode == code, (res.stdout, res.stderr)
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    if code == 2:
        assert res.stdout == ""


def test_readme_and_guide_examples(run_cli, tmp_path):
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    guide = (ROOT / "docs" / "generate.md").read_text(encoding="utf-8")
    res = run_cli(["generate", "--size", "5x5", "--difficulty", "medium", "--seed", "7"])
    shown = f"$ countlo generate --size 5x5 --difficulty medium --seed 7\n{res.stdout}"
    assert f"{shown}```" in readme and f"{shown}\n" in guide  # the whole output, then the block ends
    res = run_cli(["generate", "--size", "6x6", "--presses", "10", "--seed", "3"])
    (tmp_path / "puzzle.txt").write_text(res.stdout)
    first = run_cli(["solve", "puzzle.txt", "--min"], cwd=tmp_path).stdout.splitlines()[0]
    assert f"countlo solve puzzle.txt --min | head -1\n{first}\n" in guide
    cells = {d: [] for d in ("easy", "medium", "hard")}
    for size in ("5x5", "6x6", "7x7"):
        shape = Shape.parse(size)
        for d, shown in cells.items():
            lo, hi = band(shape, d)
            assert d != "hard" or hi == shape.cells
            shown.append(f"{lo}+" if d == "hard" else f"{lo}-{hi}")
    for d, rule in (("easy", "1 to max(1, round(0.15 RC))"),
                    ("medium", "up to max(easy + 1, round(0.30 RC))"), ("hard", "above medium")):
        assert f"| {d} | {rule} | {' | '.join(cells[d])} |" in guide


def test_a_press_count_no_board_needs_is_refused_as_none():
    """Issue 31: '... exactly 16 presses found in 20,000 tries; ... there may be none' where the
    hardest 4x4 board needs 7."""
    with pytest.raises(NoSuchBoardError) as err:
        Generator(Shape(4, 4), random.Random(3)).exactly(16)
    assert str(err.value) == "no 4x4 board needs exactly 16 presses: the hardest solvable boards need 7 presses"
