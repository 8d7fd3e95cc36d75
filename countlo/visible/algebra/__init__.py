"""Arithmetic with no Lights Out in it: polynomials over GF(2), linear systems over Z_k (Smith
form, dense LU, bit-sliced words), the ring of circulant rows F_p[x]/(x^C - 1), and the searches
for a coset's lightest member and the covering radius. Each module is imported by name; the ones
that compute on numpy arrays load numpy, so nothing is re-exported here.
"""

__all__: list[str] = []
