"""The torus with the plus rule over the circulant ring (countlo.visible.engines.circulant_torus) against brute
force, against the line chase (countlo.visible.engines.line_chase) and general's chase one equation at a
time, and against OEIS A165738."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from brute import gf2_rank
from oeis import a165738

from countlo.board import Shape
from countlo.errors import BadSizeError
from countlo.rules import NAMED, Rule, Rules
from countlo.visible import solutions
from countlo.visible.engines import choice, circulant_torus, line_chase, reference_chase


def torus(rows: int, cols: int) -> Shape:
    return Shape(rows, cols, Rules.make("torus"))




def lights(board: Shape, presses: list[int]) -> list[int]:
    """A x straight from the rule's offsets on the torus (independent of both solvers)."""
    rows, cols = board.rows, board.cols
    out = [0] * board.cells
    for cell, x in enumerate(presses):
        if x:
            r, c = divmod(cell, cols)
            for dr, dc in NAMED["plus"]:
                out[(r + dr) % rows * cols + (c + dc) % cols] ^= 1
    return out


def row_lights(rows: list[int], cols: int) -> list[int]:
    """A x on C-bit rows: x_{i-1} + x_i + x_{i+1} + the row shifted both ways round."""
    n, mask = len(rows), (1 << cols) - 1
    return [rows[i - 1] ^ rows[(i + 1) % n] ^ rows[i] ^ ((rows[i] << 1 | rows[i] >> (cols - 1)) & mask)
            ^ (rows[i] >> 1 | (rows[i] & 1) << (cols - 1)) for i in range(n)]


def check(board: Shape, b: list[int], solvable: bool | None = None) -> tuple[bool, int]:
    """circulant's answer for A x = b is right (and says `solvable` when given)."""
    presses, witness, nullity = circulant_torus.solve_start(board, [0] * board.cells, b)
    if solvable is not None:
        assert (presses is not None) == solvable
    if presses is not None:
        assert witness is None and lights(board, presses) == b
    else:
        assert witness is not None
        assert lights(board, witness) == [0] * board.cells  # a quiet pattern: an invariant here
        assert sum(w & v for w, v in zip(witness, b)) % 2 == 1
    return presses is not None, nullity


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 4), (4, 3), (3, 5), (4, 4)])
def test_every_start_of_small_tori_against_brute_force(rows, cols):
    board = torus(rows, cols)
    n = board.cells
    images = set()
    quiet = 0
    for x in itertools.product((0, 1), repeat=n):
        v = tuple(lights(board, list(x)))
        images.add(v)
        quiet += not any(v)
    nullities = set()
    for b in itertools.product((0, 1), repeat=n):
        _, nullity = check(board, list(b), b in images)
        nullities.add(nullity)
    assert nullities == {quiet.bit_length() - 1}
    basis = circulant_torus.quiet_list(board)
    assert len(basis) == quiet.bit_length() - 1 == gf2_rank(basis)
    assert all(lights(board, q) == [0] * n for q in basis)


SIZES = [(3, 3), (3, 8), (8, 3), (5, 7), (6, 6), (8, 8), (7, 16), (16, 7), (16, 15), (15, 16),
         (12, 63), (63, 12), (31, 31), (32, 32), (20, 21), (64, 5), (33, 34), (30, 30), (5, 128),
         (127, 9), (24, 24)]


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_random_starts_against_the_line_chase(rows, cols):
    board = torus(rows, cols)
    n = board.cells
    rng = random.Random(rows * 1000 + cols)
    assert line_chase.applies(board) and circulant_torus.applies(board)
    starts = [[rng.randrange(2) for _ in range(n)] for _ in range(4)]
    basis = circulant_torus.quiet_list(board)
    if basis:  # an unsolvable start for certain: a single lit cell of a quiet pattern's support
        starts.append([int(i == basis[0].index(1)) for i in range(n)])
    for start in starts:
        presses, _witness, nullity = line_chase.solve(board, start)
        _ok, got = check(board, start, presses is not None)
        assert got == nullity
    assert len(basis) == nullity == gf2_rank(basis)
    assert all(lights(board, q) == [0] * n for q in basis)
    reference = line_chase.quiet_list(board)
    assert gf2_rank(basis + reference) == nullity  # the same space


def test_against_generals_own_chase_one_equation_at_a_time():
    rng = random.Random(4)
    for rows, cols in ((3, 6), (4, 9), (9, 4), (7, 7), (10, 12)):
        board = torus(rows, cols)
        b = [rng.randrange(2) for _ in range(board.cells)]
        ref = reference_chase.solve_by_plan(board, b)
        _ok, nullity = check(board, b, ref.solvable)
        assert nullity == ref.nullity


def test_torus_nullity_matches_oeis_a165738():
    table = a165738()
    assert [circulant_torus.plan(n, n).nullity for n in range(3, 31)] == [table[n] for n in range(3, 31)]
    # 1 x 1 and 2 x 2 tori hit cells twice: they stay with general, which knows the table too
    assert not circulant_torus.applies(torus(2, 2)) and not circulant_torus.applies(torus(1, 1))
    assert not circulant_torus.applies(torus(2, 40)) and not circulant_torus.applies(torus(40, 2))


def test_applies_to_the_plus_rule_on_the_torus_with_two_states_only():
    assert circulant_torus.applies(torus(40, 40))
    assert circulant_torus.applies(Shape(40, 40, Rules("torus", Rule("mask", NAMED["plus"]), 2)))  # drawn
    assert not circulant_torus.applies(Shape(40, 40, Rules.make("torus", "plus", 3)))
    assert not circulant_torus.applies(Shape(40, 40, Rules.make("torus", "star")))
    assert not circulant_torus.applies(Shape(40, 40, Rules.make("cylinder", "plus")))
    assert not circulant_torus.applies(Shape(40, 40, Rules.make("klein", "plus")))


def test_general_dispatches_and_agrees():
    board = torus(20, 25)
    assert board.cells >= choice.FAST_CELLS
    rng = random.Random(9)
    for _ in range(3):
        start = [rng.randrange(2) for _ in range(board.cells)]
        target = [rng.randrange(2) for _ in range(board.cells)]
        sol = solutions.solve(board, start, target)
        presses, _, nullity = line_chase.solve_start(board, start, target)
        assert (sol.solvable, sol.nullity) == (presses is not None, nullity)
        if sol.solvable:
            assert solutions.apply(board, start, sol.presses) == target
        else:
            assert sum(w * (s ^ t) for w, s, t in zip(sol.witness, start, target)) % 2 == 1
    quiet = [q for q, o in solutions.quiet(board)]
    assert len(solutions.orders(board)) == len(quiet) == line_chase.plan(board).nullity > 0
    assert quiet == circulant_torus.quiet_list(board)
    assert solutions.invariants(board) == quiet
    assert solutions.quiet(board, 3) == [(q, 2) for q in quiet[:3]]


def test_solve_beyond_generals_limit_and_refusals():
    board = torus(2100, 2100)  # 4.41 million cells: past solutions.MAX_CELLS
    assert board.cells > solutions.MAX_CELLS
    rng = random.Random(3)
    start = circulant_torus.to_list(row_lights(circulant_torus.random_rows(2100, 2100, rng), 2100), 2100)
    sol = solutions.solve(board, start)
    assert sol.solvable and sol.nullity == circulant_torus.plan(2100, 2100).nullity
    assert row_lights(circulant_torus.to_rows(board, sol.presses, "x"), board.cols) == circulant_torus.to_rows(board, start, "x")
    with pytest.raises(BadSizeError, match="limited to 4194304 cells"):
        solutions.quiet(board, 1)
    with pytest.raises(BadSizeError, match="a torus with the plus rule is limited to 16777216 cells; 4097x4097"):
        solutions.check_size(torus(4097, 4097))
    small = torus(20, 20)
    with pytest.raises(BadSizeError, match=r"the start must hold 400 values 0\.\.1"):
        solutions.solve(small, [0] * 399)
    with pytest.raises(BadSizeError, match=r"the target must hold 400 values 0\.\.1"):
        solutions.solve(small, [0] * 400, [2] * 400)
    with pytest.raises(BadSizeError, match=r"the start must hold 400 values 0\.\.1"):
        solutions.solve(small, [-1] * 400)


def test_big_rows_directly():
    """A 4095 x 4095 solvable start made from random presses, and the same with one light flipped."""
    n = 4095
    rng = random.Random(5)
    x = circulant_torus.random_rows(n, n, rng)
    b = row_lights(x, n)
    presses, witness, nullity = circulant_torus.solve_rows(n, n, b)
    assert presses is not None and row_lights(presses, n) == b and nullity == circulant_torus.plan(n, n).nullity > 0
    b[7] ^= 1 << 100
    presses, witness, _ = circulant_torus.solve_rows(n, n, b)
    if presses is None:
        assert witness is not None and row_lights(witness, n) == [0] * n
        assert sum((w & v).bit_count() for w, v in zip(witness, b)) % 2 == 1
    else:
        assert row_lights(presses, n) == b


def test_products_in_the_ring_by_fft_and_by_shifts_agree():
    rng = random.Random(2)
    for bits in (800, 2000, 4095, 5000):
        a, b = rng.getrandbits(bits), rng.getrandbits(bits - 37)
        assert circulant_torus.clmul_fft(a, b) == circulant_torus.gf2.mul(a, b)


# --- through the CLI ------------------------------------------------------------------------------


def test_cli_solves_a_torus_past_the_old_limit_and_prints_a_summary(run_cli):
    res = run_cli(["solve", "--all-on", "--size", "2100x2100", "--topology", "torus"])
    assert res.returncode == 0, res.stderr
    first, second = res.stdout.splitlines()
    nullity = circulant_torus.plan(2100, 2100).nullity
    assert first.startswith("2100x2100 board (torus, plus rule): solvable, ")
    assert first.endswith(f"; nullity {nullity} (2^{nullity} quiet patterns), more than 10^12 solutions.")
    assert second.startswith("(board larger than 64x64: pass --full")
    res = run_cli(["solve", "--all-on", "--size", "2100x2100", "--topology", "torus", "--json"])
    out = json.loads(res.stdout)
    assert out["solvable"] and out["presses"] is None and out["count"] > 0 and out["nullity"] == nullity


def test_cli_random_start_from_a_file_against_the_line_chase(run_cli, tmp_path):
    rng = random.Random(8)
    board = torus(130, 96)
    start = [rng.randrange(2) for _ in range(board.cells)]
    path = tmp_path / "start.txt"
    path.write_text("".join("".join(map(str, start[r * 96:(r + 1) * 96])) + "\n" for r in range(130)))
    presses, _, nullity = line_chase.solve(board, start)
    res = run_cli(["solve", str(path), "--topology", "torus", "--json"])
    out = json.loads(res.stdout)
    assert res.returncode == (0 if presses is not None else 1)
    assert (out["solvable"], out["nullity"]) == (presses is not None, nullity)
    res = run_cli(["solve", str(path), "--topology", "torus", "--json", "--full"])
    out = json.loads(res.stdout)
    if out["solvable"]:
        x = [0] * board.cells
        for r, c in out["presses"]:  # two states: no times
            x[(r - 1) * 96 + c - 1] = 1
        assert lights(board, x) == start
    else:
        w = [0] * board.cells
        for r, c in out["witness"]:
            w[(r - 1) * 96 + c - 1] = 1
        assert lights(board, w) == [0] * board.cells and sum(a & b for a, b in zip(w, start)) % 2 == 1


@pytest.mark.parametrize(("args", "needle"), [
    (["--size", "4097x4097"], "a torus with the plus rule is limited to 16777216 cells; 4097x4097 has 16785409"),
    (["--size", "2100x2100", "--quiet"], "--quiet works on boards of at most 4194304 cells under other rules"),
    (["--size", "2100x2100", "--min"], "--min works on boards of at most 4194304 cells"),
    (["--size", "2100x2100", "--full"], "--full works on boards of at most 4194304 cells"),
    (["--size", "2100x2100", "--rule", "x"], "boards under other rules are limited to 4194304 cells"),
])
def test_cli_refuses_too_large_in_one_line(run_cli, args, needle):
    res = run_cli(["solve", "--all-on", "--topology", "torus", *args])
    assert res.returncode == 2 and needle in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not res.stdout


def test_cli_quiet_on_a_big_torus_lists_the_sizes_of_generals_basis(run_cli):
    board = torus(100, 90)  # above 64x64: sizes only, computed one pattern at a time
    res = run_cli(["solve", "--all-on", "--size", "100x90", "--topology", "torus", "--quiet"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    sizes = [sum(q) for q, _ in solutions.quiet(board, 64)]
    assert sizes  # 100 x 90 has quiet patterns
    at = next(i for i, line in enumerate(lines) if line.startswith("quiet patterns:"))
    assert lines[at + 1:] == [f"{i:>4}. {n} cells" for i, n in enumerate(sizes, 1)]
