"""The exact programme over beliefs: the least expected number of wasted clicks (docs/MATH.md §20).

A belief is the set of light patterns still possible now, all equally likely. Its value is

    V(S) = 0 if |S| <= 1, else min over clicks k of P_S(k not in X) + sum_o P(o) V(S_o),

where S_o are the boards (lights after the click) that show count o. Clicks whose count is the
same for every board of S move S to one set and can form cycles; every cycle costs at least one
click outside X, so a per-belief shortest path (Dijkstra) over such clicks, ending in an
informative click, gives V exactly. Branch and bound keeps it small: a search is asked whether V
is below a budget, and one that finds nothing below it remembers the budget as a lower bound.
Clicks that change no cell where the boards of S disagree are never needed (docs/MATH.md §20.2) and
are not searched.

Used whole on boards of a few cells (countlo.play.strategies.optimal, which adds the board's symmetries) and
as the adaptive strategy's end game once few boards are left (docs/MATH.md §20.1), where a node
budget keeps a decision short.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Hashable, Sequence

import numpy as np

from countlo.visible.batch import PressAlgebra, row_ints

Belief = frozenset[int]
VECTOR_FROM = 48  # boards in a belief from which its clicks are split in numpy


def press_sets(alg: PressAlgebra) -> Callable[[int], int]:
    """s -> the press set clearing lights s (bitsets), for an invertible A: the XOR of the
    columns of M = A^-1 at the lit cells, eight cells at a time from a table of the 256 XORs of
    each byte's columns (a few lookups per pattern, where a memo of every pattern met grew by tens
    of thousands a decision)."""
    columns = row_ints(alg.M.T.astype(np.uint8))  # column j of M: the press set of light j
    columns += [0] * (-len(columns) % 8)  # no light beyond the last cell
    tables = []
    for low in range(0, len(columns), 8):
        table = [0] * 256
        for v in range(1, 256):
            lowest = (v & -v).bit_length() - 1
            table[v] = table[v & (v - 1)] ^ columns[low + lowest]
        tables.append(table)

    def press(s: int) -> int:
        x = 0
        for table in tables:
            x ^= table[s & 255]
            s >>= 8
        return x

    return press


class OutOfNodes(Exception):
    """The search met its work budget before proving a value."""


class BeliefProgramme:
    """Exact values and best clicks of beliefs over one board's press masks.

    `press(s)` is the press set clearing lights s (as a bitset over cells). `work` bounds one call
    to `choice`: the boards of the beliefs it searches times the board's clicks (OutOfNodes past
    it, a deterministic budget so that seeded games replay the same); what was proved before is
    kept, so a later call goes on from there.
    """

    def __init__(self, masks: Sequence[int], press: Callable[[int], int], work: float = math.inf):
        self.masks = list(masks)
        self.press = press
        self.work = work
        self._wide = np.array(self.masks, dtype=np.uint64) if max(self.masks).bit_length() <= 64 else None
        self._spent = 0
        self._value: dict[Hashable, tuple[float, int]] = {}  # key -> value, best click (key's frame)
        self._lower: dict[Hashable, float] = {}  # key -> a proven lower bound

    # --- how beliefs are keyed: one key per class of beliefs with the same value ---------------
    def key(self, belief: Belief) -> tuple[Hashable, int]:
        """(the memo key of `belief`, the frame it was taken in); here each belief is its own key."""
        return belief, -1

    def to_belief_frame(self, cell: int, frame: int) -> int:
        """A click named in the key's frame, named in the belief's own (identity here)."""
        return cell

    # --- the programme --------------------------------------------------------------------------
    def choice(self, belief: Belief) -> int | None:
        """A click of least expected waste on `belief`, None once at most one board is left."""
        if len(belief) <= 1:
            return None
        self._spent = 0
        self.value(belief)
        key, frame = self.key(belief)
        return self.to_belief_frame(self._value[key][1], frame)

    def value(self, belief: Belief, budget: float = math.inf) -> float:
        """V(belief) if it is below `budget`; otherwise a lower bound of it that is at least `budget`.

        A click is abandoned as soon as what it has cost so far reaches the best found, and each
        outcome is searched only up to what is left of that bound.
        """
        if len(belief) <= 1:
            return 0.0
        key, frame = self.key(belief)
        found = self._value.get(key)
        if found is not None:
            return found[0]
        lower = self._lower.get(key, 0.0)
        if lower >= budget:
            return lower
        best, first_best = budget, -1
        dist = {belief: 0.0}
        heap: list[tuple[float, int, Belief, int]] = [(0.0, 0, belief, -1)]
        tie = 1
        while heap:
            d, _, now, first = heapq.heappop(heap)
            if d >= best:
                break
            if d > dist[now]:
                continue
            q, k, moves = self._informative(now, best - d)
            if d + q < best:
                best, first_best = d + q, (first if first >= 0 else k)
            for cost, cell, after in moves:
                nd = d + cost
                if nd < best and nd < dist.get(after, math.inf):
                    dist[after] = nd
                    heapq.heappush(heap, (nd, tie, after, first if first >= 0 else cell))
                    tie += 1
        if first_best < 0:  # nothing below the budget: V >= budget
            self._lower[key] = max(lower, budget)
            return max(lower, budget)
        self._lower.pop(key, None)
        self._value[key] = (best, self.from_belief_frame(first_best, frame))
        return best

    def from_belief_frame(self, cell: int, frame: int) -> int:
        """A click named in the belief's frame, named in the key's (identity here)."""
        return cell

    def _informative(self, belief: Belief,
                     bound: float) -> tuple[float, int, list[tuple[float, int, Belief]]]:
        """(best informative value if below `bound` else inf, its click, uninformative moves).

        Moves are (cost, click, belief after) for clicks whose count every board shares.
        """
        m = len(belief)
        self._spent += m * len(self.masks)
        if self._spent > self.work:
            raise OutOfNodes
        items = list(belief)
        presses = [self.press(s) for s in items]
        clicks = self._within(self._touching(belief), presses, bound)
        if m == 2:
            return self._pair(items, clicks, bound)
        if m >= VECTOR_FROM and self._wide is not None:
            candidates, moves = self._splits_wide(items, clicks)
        else:
            candidates, moves = self._splits(items, clicks)
        return (*self._best(candidates, m, bound), moves)

    def _best(self, candidates: list[Split], m: int, bound: float) -> tuple[float, int]:
        """(the least value below `bound` of an informative click of `candidates`, or inf; the click)."""
        candidates.sort(key=lambda c: (c[0], c[1]))
        best, best_k = math.inf, -1
        for _, k, cost, groups in candidates:
            total = cost
            limit = min(best, bound)
            if total >= limit:
                continue
            for g in groups:
                p = len(g) / m
                total += p * self.value(frozenset(g), (limit - total) / p)
                if total >= limit:
                    break
            if total < limit:
                best, best_k = total, k
        return best, best_k

    def _pair(self, boards: list[int], clicks: list[tuple[int, float]],
              bound: float) -> tuple[float, int, list[tuple[float, int, Belief]]]:
        """`_informative` on two boards, the most common belief of a search: a click that tells
        them apart leaves two single boards, worth nothing more, so its value is its cost (the
        first click of least cost wins, as in the general order: every such click tells one bit)."""
        a, b = boards
        best, best_k = math.inf, -1
        moves: list[tuple[float, int, Belief]] = []
        for k, cost in clicks:
            mask = self.masks[k]
            if (a ^ mask).bit_count() == (b ^ mask).bit_count():
                moves.append((cost, k, frozenset((a ^ mask, b ^ mask))))
            elif cost < best and cost < bound:
                best, best_k = cost, k
        return best, best_k, moves

    def _touching(self, belief: Belief) -> list[int]:
        """The clicks worth searching on `belief`. When its boards show one count (as every belief
        of a game does), the clicks that change no cell where they disagree are uninformative and
        never better than not clicking (docs/MATH.md §20.2); otherwise every click."""
        it = iter(belief)
        first = next(it)
        lit = first.bit_count()
        apart = 0
        for s in it:
            if s.bit_count() != lit:
                return list(range(len(self.masks)))
            apart |= s ^ first
        return [k for k, mask in enumerate(self.masks) if mask & apart]

    @staticmethod
    def _within(clicks: list[int], presses: list[int], bound: float) -> list[tuple[int, float]]:
        """(click, cost) of the clicks whose cost alone is below `bound`.

        The others can neither give an informative value below the bound nor lead, through an
        uninformative move, to a belief reached below it (the search's bound is the best found
        less the distance walked), so dropping them changes no value and no choice; the margin
        keeps the rounding of that difference on the side of searching.
        """
        m = len(presses)
        planes: list[int] = []  # bit j of every cell's count of press sets holding it, bit-sliced
        for x in presses:
            carry = x
            for j, plane in enumerate(planes):
                planes[j] = plane ^ carry
                carry &= plane
                if not carry:
                    break
            if carry:
                planes.append(carry)
        out = []
        for k in clicks:
            inside = 0
            for j, plane in enumerate(planes):
                inside |= (plane >> k & 1) << j
            cost = (m - inside) / m
            if cost <= bound + 1e-9:
                out.append((k, cost))
        return out

    def _splits(self, boards: list[int],
                clicks: list[tuple[int, float]]) -> tuple[list[Split], list[tuple[float, int, Belief]]]:
        """Per (click, cost) of `clicks`: (search order, click, cost, the outcomes' boards, largest
        first) if the count tells boards apart, else an uninformative move (cost, click, belief after)."""
        m = len(boards)
        candidates: list[Split] = []
        moves: list[tuple[float, int, Belief]] = []
        for k, cost in clicks:
            mask = self.masks[k]
            groups: dict[int, list[int]] = {}
            for s in boards:
                t = s ^ mask
                groups.setdefault(t.bit_count(), []).append(t)
            if len(groups) == 1:
                moves.append((cost, k, frozenset(next(iter(groups.values())))))
            else:
                candidates.append(_split(k, cost, m, list(groups.values())))
        return candidates, moves

    def _splits_wide(self, items: list[int],
                     clicks: list[tuple[int, float]]) -> tuple[list[Split], list[tuple[float, int, Belief]]]:
        """`_splits` for long beliefs, every click at once in numpy (boards of up to 64 cells)."""
        assert self._wide is not None
        m = len(items)
        s = np.array(items, dtype=np.uint64)
        ks = np.array([k for k, _ in clicks], dtype=np.intp)
        after = s[None, :] ^ self._wide[ks][:, None]  # clicks x boards: the lights after
        counts = np.bitwise_count(after)
        candidates: list[Split] = []
        moves: list[tuple[float, int, Belief]] = []
        for i, (k, cost) in enumerate(clicks):
            c = counts[i]
            order = np.argsort(c, kind="stable")
            sorted_c = c[order]
            cuts = np.flatnonzero(sorted_c[1:] != sorted_c[:-1]) + 1
            if not len(cuts):
                moves.append((cost, k, frozenset(after[i].tolist())))
                continue
            boards = after[i][order].tolist()
            edges = [0, *cuts.tolist(), m]
            candidates.append(_split(k, cost, m, [boards[a:b] for a, b in itertools.pairwise(edges)]))
        return candidates, moves


Split = tuple[float, int, float, list[list[int]]]


def _split(k: int, cost: float, m: int, groups: list[list[int]]) -> Split:
    """A click's entry in the search: ordered by its cost less half a click per bit it tells."""
    bits = -sum(len(g) / m * math.log2(len(g) / m) for g in groups)
    return cost - 0.5 * bits, k, cost, sorted(groups, key=len, reverse=True)
