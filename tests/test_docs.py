"""The project's own documents: every citation of docs/MATH.md names a section that exists, and
nothing refers to files outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATH = ROOT / "docs" / "MATH.md"


def project_files() -> list[Path]:
    """Source, tests, benchmarks and documents that ship with the repository."""
    out = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder, pattern in (("countlo", "*.py"), ("tests", "*.py"), ("bench", "*.py"),
                            ("docs", "*.md"), ("transcripts", "*")):
        out += sorted(p for p in (ROOT / folder).rglob(pattern) if p.is_file())
    this = Path(__file__).resolve()  # its patterns would match themselves
    return [p for p in out if p.exists() and "__pycache__" not in p.parts and p != this]


def sections() -> set[int]:
    """Numbers of the `## N. Title` sections of docs/MATH.md."""
    return {int(m) for m in re.findall(r"^## (\d+)\. ", MATH.read_text(encoding="utf-8"), re.M)}


def test_math_sections_are_numbered_in_order():
    found = [int(m) for m in re.findall(r"^## (\d+)\. ", MATH.read_text(encoding="utf-8"), re.M)]
    assert found == list(range(1, len(found) + 1))


def test_every_section_citation_exists():
    known = sections()
    bad = []
    for path in project_files():
        if path == MATH:
            continue
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "MATH.md" not in line and "§" not in line:
                continue
            for a, b in re.findall(r"§(\d+)(?:-(\d+))?", line):
                cited = range(int(a), int(b or a) + 1)
                if not set(cited) <= known:
                    bad.append(f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}")
    assert not bad, "citations of missing docs/MATH.md sections:\n" + "\n".join(bad)


def test_math_is_cited_by_its_path():
    bad = []
    for path in project_files():
        text = path.read_text(encoding="utf-8")
        for line_no, line in enumerate(text.splitlines(), 1):
            for m in re.finditer(r"(\S*)MATH\.md", line):
                # a page of docs/ links to it as a sibling: [docs/MATH.md §6](MATH.md#6-...)
                sibling = path.parent == MATH.parent and m.group(1).endswith("](")
                if path != MATH and not sibling and not m.group(1).endswith(("docs/", "(docs/", "[docs/")):
                    bad.append(f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}")
    assert not bad, "MATH.md must be cited as docs/MATH.md:\n" + "\n".join(bad)


def test_nothing_refers_outside_the_repository():
    outside = re.compile(r"\.\./|/work/|\bshared/")
    bad = [
        f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}"
        for path in project_files()
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not bad, "references to files outside the repository:\n" + "\n".join(bad)
