"""Bit-packed elimination over GF(2) against plain elimination on Python ints."""

from __future__ import annotations

import numpy as np
import pytest
from brute import gf2_rank

from countlo.visible.algebra import bitpacked


def test_echelon_on_random_matrices_dense_sparse_and_dependent():
    """Leading one at each pivot column, nothing before it, zero rows past the rank, the same row
    space (the carried word included) and the rank of a plain elimination on Python ints."""
    rng = np.random.default_rng(5)
    for trial in range(60):
        m, width = int(rng.integers(1, 300)), int(rng.integers(1, 400))
        dense = rng.random((m, width)) < (0.5, 0.1, 0.02, 0.002)[trial % 4]  # the last: words left sparse
        if trial % 4 == 0 and trial % 8:
            dense[:, :64] = rng.random((m, min(64, width))) < 0.002  # a sparse word, then dense ones
        if trial % 5 == 0:
            dense[m // 2:] = dense[:m - m // 2]  # dependent rows
        words = (width + 63) // 64
        c = np.zeros((m, words + 1), dtype=np.uint64)
        for i, j in zip(*np.nonzero(dense)):
            c[i, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
        c[:, words] = rng.integers(0, 2 ** 63, m).astype(np.uint64)  # carried along, never a pivot
        rank, pivcols, a = bitpacked.echelon(c, width)
        as_ints = [int.from_bytes(row.tobytes(), "little") for row in a]
        low = (1 << width) - 1
        assert rank == gf2_rank([v & low for v in [int.from_bytes(r.tobytes(), "little") for r in c]])
        assert list(pivcols) == sorted(set(pivcols.tolist())) and len(pivcols) == rank
        for i, col in enumerate(pivcols.tolist()):
            assert as_ints[i] >> col & 1 and not as_ints[i] & ((1 << col) - 1)
            # reduced within the word: 0 at the word's other pivots (back_substitute relies on it)
            assert all(not as_ints[i] >> c & 1 for c in pivcols.tolist() if c != col and c >> 6 == col >> 6)
        assert not any(v & low for v in as_ints[rank:])
        original = [int.from_bytes(r.tobytes(), "little") for r in c]
        assert gf2_rank(as_ints) == gf2_rank(original) == gf2_rank(as_ints + original)


def test_add_sums_against_row_by_row_xor():
    """Every row gets the XOR of the table rows its chosen bits select; other bits are ignored."""
    rng = np.random.default_rng(11)
    for trial in range(60):
        width = int(rng.integers(1, 6))
        n = int(rng.integers(0, 3000)) if trial % 5 == 0 else int(rng.integers(0, 40))
        k = int(rng.integers(0, 65))
        bits = sorted(rng.choice(64, size=k, replace=False).tolist()) if trial % 2 else rng.permutation(64)[:k].tolist()
        pmat = rng.integers(0, 2 ** 63, size=(k, width)).astype(np.uint64) * np.uint64(2) + np.uint64(trial & 1)
        words = rng.integers(0, 2 ** 63, size=n).astype(np.uint64) * np.uint64(2) + np.uint64(1)
        target = rng.integers(0, 2 ** 63, size=(n, width)).astype(np.uint64)
        want = target.copy()
        for i in range(n):
            for j, b in enumerate(bits):
                if int(words[i]) >> b & 1:
                    want[i] ^= pmat[j]
        bitpacked.add_sums(target, pmat, words, bits)
        assert np.array_equal(target, want)


def _pack(dense: np.ndarray) -> np.ndarray:
    m, n = dense.shape
    bits = np.zeros((m, max(1, (n + 63) // 64) * 64), dtype=np.uint8)
    bits[:, :n] = dense
    return np.packbits(bits, axis=1, bitorder="little").view(np.uint64).reshape(m, -1)


@pytest.mark.parametrize("m,n,density", [(1, 1, 0.5), (5, 1, 0.5), (3, 7, 0.0), (64, 64, 0.5), (70, 63, 0.5),
                                         (65, 65, 0.5), (200, 130, 0.5), (130, 200, 0.5), (300, 257, 0.02),
                                         (300, 300, 0.003), (150, 190, 0.9), (400, 400, 0.5)])
def test_kernel_and_particular_against_plain_elimination(m, n, density):
    """System.kernel: C K = 0 and exactly n - rank(C) independent vectors; System.particular: a y with
    C y = r whenever r is in C's image (r = C y0), None exactly when rank [C | r] > rank C."""
    rng = np.random.default_rng(m * 1000 + n)
    dense = (rng.random((m, n)) < density).astype(np.uint8)
    if m > 10:
        dense[::5] = dense[1::5][:len(dense[::5])] ^ dense[2::5][:len(dense[::5])]  # rank-deficient
    rows = [int("".join(map(str, reversed(r.tolist()))) or "0", 2) for r in dense]
    rank = gf2_rank(rows)
    plan = bitpacked.System(_pack(dense), n)
    assert plan.nullity == n - rank
    kernel = plan.kernel()
    vecs = np.unpackbits(kernel.view(np.uint8), axis=1, bitorder="little")[:, :n - rank].T
    assert not (dense.astype(np.int64) @ vecs.T.astype(np.int64) % 2).any()
    assert gf2_rank([v.tolist() for v in vecs]) == n - rank
    for trial in range(4):
        y0 = rng.integers(0, 2, n).astype(np.int64)
        r = (dense.astype(np.int64) @ y0 % 2).astype(np.uint8) if trial % 2 == 0 else rng.integers(0, 2, m).astype(
            np.uint8)
        y = plan.particular(r)
        solvable = gf2_rank([row | int(bit) << n for row, bit in zip(rows, r.tolist())]) == rank
        assert (y is not None) == solvable
        if y is not None:
            assert np.array_equal(dense.astype(np.int64) @ y.astype(np.int64) % 2, r)
