"""Published tables the tests check against, read from tests/data (one copy of each)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def table(name: str) -> dict[int, int]:
    """{n: a(n)} from a tests/data file of 'n a(n)' lines ('#' lines are comments)."""
    out: dict[int, int] = {}
    for line in (DATA / name).read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            out[int(parts[0])] = int(parts[1])
    return out


def a165738() -> dict[int, int]:
    """OEIS A165738: the nullity of n x n Lights Out on a torus, n = 1..30."""
    return table("A165738_torus_nullity_nxn_n1-30.txt")
