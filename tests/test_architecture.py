"""The layout's rules that no linter checks: no import cycles between countlo's modules, not
even through imports inside functions (ruff checks style and banned imports, lint-imports the
layers; both run in .ci/run)."""

from __future__ import annotations

import ast
from pathlib import Path

import countlo

PACKAGE = Path(countlo.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The countlo modules `path` imports anywhere in its body, TYPE_CHECKING blocks excepted."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("countlo"):
            for a in node.names:
                full = f"{node.module}.{a.name}"
                out.add(full if full in modules else node.module)
    return {m for m in out if m in modules}


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imports(path, set(files)) - {name} for name, path in files.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules, or None (depth-first search with colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                return [*stack[stack.index(n):], n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles_between_countlo_modules():
    edges = graph()
    assert edges.get("countlo.hidden.rebuild")
    cycle = find_cycle(edges)
    assert cycle is None, " -> ".join(cycle or [])


def test_every_subpackage_declares_its_public_api():
    for init in PACKAGE.glob("*/__init__.py"):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        names = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Name)]
        assert "__all__" in names, f"{init.parent.name}/__init__.py has no __all__"


def _on_the_map(module: Path, text: str) -> bool:
    """docs/ARCHITECTURE.md names the module in a table row (`name`) or its file (name.py)."""
    return f"`{module.stem}`" in text or f"{module.stem}.py" in text


def test_every_module_is_on_the_architecture_map():
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    modules = [p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"]
    missing = [str(p.relative_to(PACKAGE.parent)) for p in modules if not _on_the_map(p, text)]
    assert missing == [], f"add these modules to docs/ARCHITECTURE.md: {missing}"


def private_uses(path: Path) -> list[str]:
    """Where `path` reaches into another countlo module's private names (`from m import _x`, or
    `m._x` on a module it imported); `_` (gettext) is the one public name with an underscore."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("countlo"):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__") and a.name != "_":
                    found.append(f"{path.name}:{node.lineno}: {node.module}.{a.name}")
                modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.startswith("countlo"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.attr != "_" and isinstance(node.value, ast.Name) and node.value.id in modules):
            found.append(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_the_private_finder_finds_both_kinds(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from countlo.a import _x, _\nfrom countlo import b\nb._y()\nb.z()\n")
    assert private_uses(sample) == ["sample.py:1: countlo.a._x", "sample.py:3: b._y"]


def test_no_module_or_test_uses_another_modules_private_names():
    tests = Path(__file__).resolve().parent
    found = [use for root in (PACKAGE, tests) for p in sorted(root.rglob("*.py")) for use in private_uses(p)]
    assert found == [], "make these public in their module, or keep them to it: " + "; ".join(found)
