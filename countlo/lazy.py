"""Names a package re-exports, loaded from their modules on first use (PEP 562), so that
importing one light submodule of the package (what `countlo play --help` needs) does not load
the rest of it and numpy."""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from collections.abc import Callable


def attributes(package: str, where: dict[str, str]) -> Callable[[str], object]:
    """The module `__getattr__` of `package`: each name in `where` is taken from the module
    `where` names on first use and kept in the package, so the look-up happens once."""

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
