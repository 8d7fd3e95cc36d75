"""Gauss-Jordan elimination over GF(2) on bit-packed rows (64 columns a word, numpy uint64):
forward elimination a word at a time with the method of the four Russians, back-substitution for
many right-hand sides at once, and a system C y = r with its particular solutions and kernel
(docs/MATH.md §18.1, §18.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

Words = NDArray[np.uint64]
ONE = np.uint64(1)


def words(bits: int) -> int:
    """uint64 words that hold `bits` bits (at least one)."""
    return max(1, (bits + 63) // 64)


@dataclass(frozen=True)
class Reduction:
    """C brought to echelon form: row a has its leading 1 at pivcols[a] (increasing) and zeros
    before it; the other rows became zero."""

    rank: int
    pivcols: NDArray[np.int64]
    rows: Words  # (rank, words over the free variables)


@dataclass(frozen=True)
class System:
    """C y = r over GF(2) with C's rows bit-packed (one row per equation, one bit per unknown, of
    `nfree` unknowns); C's reduction is made once, on demand, and kept."""

    cons: Words
    nfree: int
    cache: dict[str, Reduction] = field(default_factory=dict, compare=False)
    kernels: dict[str, Words] = field(default_factory=dict, compare=False)

    def reduction(self) -> Reduction:
        if "c" not in self.cache:
            rank, pivcols, a = echelon(self.cons, self.nfree)
            self.cache["c"] = Reduction(rank, pivcols, a[:rank].copy())
        return self.cache["c"]

    @property
    def nullity(self) -> int:
        return self.nfree - self.reduction().rank

    def particular(self, r: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
        """A y with C y = r (0/1 per unknown), None when there is none: elimination on [C | r]
        (which also leaves C's reduction behind), then back-substitution."""
        w = self.cons.shape[1]
        aug = np.concatenate([self.cons, r.astype(np.uint64).reshape(-1, 1)], axis=1)
        rank, pivcols, a = echelon(aug, self.nfree)
        if "c" not in self.cache:
            self.cache["c"] = Reduction(rank, pivcols, a[:rank, :w].copy())
        if (a[rank:, w] & ONE).any():
            return None
        y = np.zeros((self.nfree, 1), dtype=np.uint64)
        back_substitute(a[:rank, :w], pivcols, self.nfree, y, a[:rank, w:] & ONE)
        solution: NDArray[np.uint8] = (y[:, 0] & ONE).astype(np.uint8)
        return solution

    def kernel(self) -> Words:
        """(nfree, words over the nullity): bit q of row i is y_i of the q-th kernel basis vector
        (one per non-pivot column j: y_j = 1, the other non-pivot columns 0, the pivot columns by
        back-substitution, all vectors at once)."""
        if "k" in self.kernels:
            return self.kernels["k"]
        red = self.reduction()
        nonpiv = np.setdiff1d(np.arange(self.nfree), red.pivcols)
        out = np.zeros((self.nfree, words(len(nonpiv))), dtype=np.uint64)
        q = np.arange(len(nonpiv))
        out[nonpiv, q >> 6] = ONE << (q & 63).astype(np.uint64)
        back_substitute(red.rows, red.pivcols, self.nfree, out, np.zeros((red.rank, out.shape[1]), dtype=np.uint64))
        self.kernels["k"] = out
        return out


def back_substitute(rows: Words, pivcols: NDArray[np.int64], nfree: int, out: Words, acc: Words) -> None:
    """Back-substitution on `echelon`'s rows, several right-hand sides at once (one bit each):
    given out[j] at the columns j < nfree without a pivot, sets out[pivcols[i]] to
    acc[i] + sum over the other columns j of rows[i, j] out[j], for every pivot row i (acc is
    used up). A word of columns at a time from the right (docs/MATH.md §18.1): the values at the
    word's columns without a pivot are added into every row up to the word's pivot rows (four
    Russians, `add_sums`); a pivot row of the word is 0 at the word's other pivots, so its value
    is then its accumulated sum, and the word's pivot values are added into the rows above."""
    owner = pivcols >> 6
    for word in range(words(nfree) - 1, -1, -1):
        top = int(np.searchsorted(owner, word, side="left"))
        end = int(np.searchsorted(owner, word, side="right"))
        if not end:
            continue
        base = 64 * word
        cols = pivcols[top:end]
        pivbits = set((cols - base).tolist())
        others = [t for t in range(min(64, nfree - base)) if t not in pivbits]
        known = out[[base + t for t in others]]
        if others and known.any():
            add_sums(acc[:end], known, rows[:end, word], others)
        out[cols] = acc[top:end]
        if top and end > top:
            add_sums(acc[:top], out[cols], rows[:top, word], (cols - base).tolist())


def units(n: int) -> Words:
    out = np.zeros((n, words(n)), dtype=np.uint64)
    idx = np.arange(n)
    out[idx, idx >> 6] = ONE << (idx & 63).astype(np.uint64)
    return out


CHUNK = 1 << 15  # words of rows that add_sums updates per pass: the rows and their gathered sums stay in cache


def add_sums(target: Words, pmat: Words, words: Words, bits: Sequence[int]) -> None:
    """target[i] ^= the XOR of the pmat[j] whose bit bits[j] is set in words[i] (distinct bits; other
    bits of words are ignored). The four Russians (docs/MATH.md §18.5): the bits are taken in
    groups of g (8, or 4 for fewer than 224 rows, where building the tables would cost more than
    the lookups save); for each group holding some of the bits a table of all sums of their rows,
    indexed by the group's bits of the word itself, so a row costs one lookup and one XOR per
    group; the rows are taken a cache-sized block at a time, all tables applied to one block
    before the next. The tables of all groups are built together, a doubling step each."""
    n = len(words)
    if not n or not len(bits):
        return
    width = pmat.shape[1]
    bit_list = list(bits)
    g = 4 if n < 224 else 8  # tables cost 2^g rows each, 64 / g of them; lookups n 64 / g rows
    groups = sorted({b // g for b in bit_list})
    where = {q: i for i, q in enumerate(groups)}
    top = max(b % g for b in bit_list) + 1  # the highest bit used in any group: tables of 2^top rows
    rows = np.zeros((len(groups), top, width), dtype=np.uint64)  # row t of a group: 0 when t is not a bit
    rows[[where[b // g] for b in bit_list], [b % g for b in bit_list]] = pmat[:len(bit_list)]
    tables = np.empty((len(groups), 1 << top, width), dtype=np.uint64)
    tables[:, 0] = 0
    for t in range(top):  # entries with bit t set: the entries without it, plus row t
        np.bitwise_xor(tables[:, :1 << t], rows[:, t:t + 1], out=tables[:, 1 << t:2 << t])
    shifts = np.array([g * q for q in groups], dtype=np.uint64)
    idx = ((np.asarray(words, dtype=np.uint64)[None, :] >> shifts[:, None])
           & np.uint64((1 << top) - 1)).astype(np.intp)
    step = max(16, CHUNK // max(1, width))
    buf = np.empty((min(step, n), width), dtype=np.uint64)
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        part = buf[:hi - lo]
        block = target[lo:hi]
        for i in range(len(groups)):
            tables[i].take(idx[i, lo:hi], axis=0, out=part, mode="clip")  # in range: no check needed
            np.bitwise_xor(block, part, out=block)


def echelon(c: Words, width: int) -> tuple[int, NDArray[np.int64], Words]:
    """Forward elimination over GF(2) on the rows of c, pivoting on bits 0..width-1 only (later
    bits are carried along): (rank, pivot columns, the matrix in echelon form, zero rows last).

    A word of 64 columns at a time: the pivots of the word are found on the word alone, their rows
    are kept reduced among themselves (P: a pivot row is 0 at the word's other pivots, which
    `back_substitute` relies on), and every other row r then becomes r + sum_i r[pivot i] P_i
    (the only row of r + span(P) with zeros at the pivots), added from tables of all sums of the
    pivot rows of each byte (the method of the four Russians, `add_sums`)."""
    m = len(c)
    a = c.copy()
    rank = 0
    pivcols: list[int] = []
    words = (width + 63) // 64
    # the rows not yet pivots (from `rank`) and the words from `start`, kept contiguous: the table
    # additions run twice as fast on whole rows as on a slice of each row, and a finished word
    # (0 on every such row) is dropped at the next copy
    act, start = a, 0
    for word in range(words):
        if rank == m:
            break
        n = len(act)
        orig = act[:, 0].copy()
        if 4 * int(np.count_nonzero(orig)) < n:  # sparse: plain elimination, column by column
            a[rank:, :start] = 0
            a[rank:, start:] = act
            rank = _eliminate_word(a, rank, word, width, pivcols)
            start = word + 1 if word + 1 < words else word
            act = a[rank:, start:].copy()
            continue
        taken = np.zeros(n, dtype=bool)
        pmat = np.zeros((64, act.shape[1]), dtype=np.uint64)
        bits: list[int] = []
        most = int(min(64, width - 64 * word))
        low_bits = (1 << most) - 1  # bits past `width` are carried along, never pivots
        quick = _word_pivots([v & low_bits for v in orig[:SCAN].tolist()], most)
        if quick is not None:  # the word's pivots among its first rows, found on Python ints
            picks, bits, combos = quick
            add_sums(pmat[:len(combos)], act[picks], np.array(combos, dtype=np.uint64), range(len(picks)))
            taken[picks] = True
        cur = orig.copy()  # the word of every row after elimination by this word's pivots so far
        bitarr = np.zeros(64, dtype=np.uint64)
        for bit in range(0 if quick is None else most, most):
            b = np.uint64(bit)
            cand = np.flatnonzero(((cur >> b) & ONE).astype(bool) & ~taken)
            if not len(cand):
                continue
            p = int(cand[0])
            full = act[p].copy()
            k = len(bits)
            if k:
                use = ((orig[p] >> bitarr[:k]) & ONE).astype(bool)
                if use.any():
                    full ^= np.bitwise_xor.reduce(pmat[:k][use], axis=0)
                older = ((pmat[:k, 0] >> b) & ONE).astype(bool)
                if older.any():
                    pmat[:k][older] ^= full
            pmat[k] = full
            bitarr[k] = b
            bits.append(bit)
            taken[p] = True
            cur[cand[1:]] ^= cur[p]
        k = len(bits)
        # the other rows, cleared at the pivots; without this word unless it is the last (whose
        # bits past `width` are carried along)
        drop = 1 if word + 1 < words else 0
        rest = ~taken
        nxt = act[rest, drop:] if k else act[:, drop:].copy()
        if k:
            add_sums(nxt, pmat[:k, drop:], orig[rest], bits)
            a[rank:rank + k, :start] = 0
            a[rank:rank + k, start:] = pmat[:k]
            rank += k
            pivcols.extend(64 * word + bit for bit in bits)
        act, start = nxt, start + drop
    a[rank:, :start] = 0
    a[rank:, start:] = act
    return rank, np.array(pivcols, dtype=np.int64), a


SCAN = 256  # rows of a word searched on Python ints for its pivots before the column-by-column search


def _word_pivots(vals: list[int], most: int) -> tuple[list[int], list[int], list[int]] | None:
    """Pivots for one 64-bit word of the rows `vals`, when `most` of them are found there:
    (chosen rows, pivot bits increasing, combos), where the row of pivot i is the XOR of the
    chosen rows in combos[i] (a bitmask over `chosen`), reduced so that its lowest bit is its
    pivot and it has no other pivot bit (Gauss-Jordan on at most 64 ints). None otherwise."""
    basis: dict[int, tuple[int, int]] = {}  # lowest bit -> (value, combo)
    chosen: list[int] = []
    for j, v in enumerate(vals):
        c = 0
        while v:
            low = v & -v
            hit = basis.get(low)
            if hit is None:
                break
            v ^= hit[0]
            c ^= hit[1]
        if v:
            basis[v & -v] = (v, c ^ (1 << len(chosen)))
            chosen.append(j)
            if len(chosen) == most:
                break
    if len(chosen) < most:
        return None
    lows = sorted(basis, reverse=True)
    done: list[tuple[int, int, int]] = []  # (low, value, combo), final
    for low in lows:
        v, c = basis[low]
        for flow, fv, fc in done:
            if v & flow:
                v ^= fv
                c ^= fc
        done.append((low, v, c))
    done.reverse()
    return chosen, [low.bit_length() - 1 for low, _, _ in done], [c for _, _, c in done]


def _eliminate_word(a: Words, rank: int, word: int, width: int, pivcols: list[int]) -> int:
    """Forward elimination on the columns of one word, one pivot at a time, each pivot also
    cleared from the word's earlier pivot rows (so they are reduced among themselves, as in
    `echelon`); the new rank."""
    m = len(a)
    first = rank
    for bit in range(min(64, width - 64 * word)):
        if rank == m:
            break
        b = np.uint64(bit)
        hits = np.flatnonzero((a[rank:, word] >> b) & ONE)
        if not len(hits):
            continue
        p = rank + int(hits[0])
        if p != rank:
            a[[rank, p]] = a[[p, rank]]
        below = rank + hits[1:]  # the swap moved a row without the bit to p
        if len(below):
            a[below, word:] ^= a[rank, word:]
        above = first + np.flatnonzero((a[first:rank, word] >> b) & ONE)
        if len(above):
            a[above, word:] ^= a[rank, word:]
        pivcols.append(64 * word + bit)
        rank += 1
    return rank
