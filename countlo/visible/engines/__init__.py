"""The methods that solve visible boards, one module per method (docs/ARCHITECTURE.md, "which
engine solves which board"). Each is imported by name where chosen, so that numpy loads only
for the boards that need it; nothing is re-exported here.
"""

__all__: list[str] = []
