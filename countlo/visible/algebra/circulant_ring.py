"""The ring of circulant rows A = F_p[x]/(x^C - 1) for a prime p not dividing C, on numpy arrays
(docs/MATH.md §18.9): products by FFT, the Frobenius as a permutation of the coefficients, the
pseudo-inverse a^(p^D - 2) and its idempotent, and the dimension of an ideal e A by Euclid. A is a
product of fields there, which is what countlo.visible.engines.ring_chase's chase over it rests on.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Arr = NDArray[np.int64]
Spec = NDArray[np.complex128]


class Ring:
    """F_p[x]/(x^C - 1) for a prime p not dividing C; elements are int64 arrays of C residues
    (batches along the leading axes). Products go through numpy's real FFT: a product's
    coefficients are at most C (p - 1)^2, far inside what float64 carries exactly."""

    def __init__(self, p: int, cols: int):
        assert cols % p, "A is semisimple only when p does not divide C"
        self.p, self.n = p, cols
        self.degree = _order(p, cols)  # a^(p^degree) = a for every a (docs/MATH.md §18.9)

    def one(self) -> Arr:
        out = np.zeros(self.n, dtype=np.int64)
        out[0] = 1
        return out

    def spec(self, a: Arr) -> Spec:
        s: Spec = np.fft.rfft(a, axis=-1)
        return s

    def back(self, s: Spec) -> Arr:
        """The residues of an exact integer product given by its spectrum."""
        out: Arr = np.rint(np.fft.irfft(s, self.n, axis=-1)).astype(np.int64) % self.p
        return out

    def mul(self, a: Arr, b: Arr) -> Arr:
        return self.back(self.spec(a) * self.spec(b))

    def frobenius(self, a: Arr, times: int = 1) -> Arr:
        """a^(p^times): over F_p, (sum a_c x^c)^p = sum a_c x^(pc), a permutation of the coefficients."""
        idx = (pow(self.p, times, self.n) * np.arange(self.n)) % self.n
        out = np.empty_like(a)
        out[..., idx] = a
        return out

    def power(self, a: Arr, e: int) -> Arr:
        out = self.one()
        base = a
        while e:
            if e & 1:
                out = self.mul(out, base)
            e >>= 1
            if e:
                base = self.mul(base, base)
        return out

    def pinv(self, a: Arr) -> Arr:
        """a+ = a^(p^D - 2): the inverse of a where it is a unit, 0 where it vanishes. With
        P = prod_{j < D-1} frob^j(a), p^D - 2 = (p - 2) + p (p - 1)(1 + p + ... + p^(D-2)) gives
        a+ = a^(p-2) frob(P^(p-1)); P comes by doubling, P_2m = P_m frob^m(P_m)."""
        m = self.degree - 1
        prod = self.one()
        if m:
            prod, have = a, 1
            for bit in bin(m)[3:]:
                prod = self.mul(prod, self.frobenius(prod, have))
                have *= 2
                if bit == "1":
                    prod = self.mul(prod, self.frobenius(a, have))
                    have += 1
        return self.mul(self.power(a, self.p - 2), self.frobenius(self.power(prod, self.p - 1)))

    def idempotent(self, a: Arr) -> Arr:
        """a a+: 1 where a is a unit, 0 where it vanishes."""
        return self.mul(a, self.pinv(a))

    def dimension(self, e: Arr) -> int:
        """dim_F (e A) for an idempotent e: C - deg gcd(e(x), x^C - 1) (the roots of unity where e is 0)."""
        modulus = np.zeros(self.n + 1, dtype=np.int64)
        modulus[0], modulus[-1] = self.p - 1, 1
        return self.n - _gcd_degree(modulus, e % self.p, self.p)


def _order(p: int, n: int) -> int:
    """The multiplicative order of p mod n (1 for n = 1)."""
    d, v = 1, p % n
    while v != 1 % n:
        v, d = v * p % n, d + 1
    return d


def _trim(a: Arr) -> Arr:
    nz = np.flatnonzero(a)
    return a[:nz[-1] + 1] if len(nz) else a[:0]


def _gcd_degree(a: Arr, b: Arr, p: int) -> int:
    """deg gcd(a, b) over F_p (coefficients low to high)."""
    a, b = _trim(a.copy()), _trim(b.copy())
    while len(b):
        inv = pow(int(b[-1]), -1, p)
        while len(a) >= len(b):
            shift = len(a) - len(b)
            a[shift:] = (a[shift:] - (int(a[-1]) * inv % p) * b) % p
            a = _trim(a)
        a, b = b, a
    return len(a) - 1
