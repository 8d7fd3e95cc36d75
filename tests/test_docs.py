"""The project's own documents: every citation of docs/MATH.md names a section that exists, and
nothing refers to files outside the repository."""

from __future__ import annotations

import doctest
import re
import unicodedata
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


# --- the manual: README.md and docs/ (issue 29) ---------------------------------------------

README = ROOT / "README.md"
DOCS = ROOT / "docs"
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def manual_pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def prose(text: str, inline_code: bool = False) -> str:
    """The text outside fenced and indented blocks, and outside inline code unless asked for:
    where a link is a link and a heading a heading."""
    out, inside = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            inside = not inside
            continue
        if not inside and not line.startswith("    "):
            out.append(line if inline_code else re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    """The anchor MkDocs (Python-Markdown's toc) gives a heading."""
    text = re.sub(r"[`*]", "", heading).strip()
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def anchors(page: Path) -> set[str]:
    text = prose(page.read_text(encoding="utf-8"), inline_code=True)
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Relative links of `page` whose file, or whose anchor in a Markdown file, does not exist."""
    bad = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            bad.append(f"{page.relative_to(root)}: {target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            bad.append(f"{page.relative_to(root)}: {target} (no such heading)")
    return bad


def test_the_readme_fits_in_250_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines: the manual's detail belongs in docs/"


def test_the_readme_begins_with_the_two_commands():
    """A newcomer's first two things to type, straight after the introduction."""
    blocks = re.findall(r"^    (\S.*)$", README.read_text(encoding="utf-8"), re.M)
    assert blocks[:2] == [
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/countlo play --sim --seed 1",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test,cluster]' && .venv/bin/python -m pytest -n 2",
    ]


def test_every_relative_link_of_the_manual_points_at_something():
    """MkDocs checks the links of docs/ when it builds; README.md is not part of the site."""
    bad = [problem for page in manual_pages() for problem in broken_links(page)]
    assert not bad, "broken links:\n" + "\n".join(bad)


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Title\n\n## The companion: `--listen`\n")
    page.write_text("[a](other.md#the-companion-listen) [b](other.md#nope) ![c](gone.png)\n"
                    "`[d](gone.md)` [e](https://example.org/x) [f](#here)\n\n## Here\n")
    assert broken_links(page, tmp_path) == ["page.md: other.md#nope (no such heading)",
                                            "page.md: gone.png (no such file)"]


def test_every_page_of_docs_is_in_the_sites_nav():
    """mkdocs.yml lists every page (MkDocs only warns about a page left out, which --strict
    turns into a failure in .ci/run; this says it without MkDocs installed)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    listed = set(re.findall(r":\s*(\S+\.md)\s*$", nav, re.M))
    pages = {p.name for p in DOCS.glob("*.md")}
    assert listed == pages, (f"in docs/ but not in the nav: {sorted(pages - listed)}; "
                             f"in the nav but not in docs/: {sorted(listed - pages)}")


def test_every_python_example_of_the_manual_runs():
    """The `>>>` lines of README.md and docs/ are doctests: each prints what the page shows."""
    parser, ran = doctest.DocTestParser(), 0
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for page in manual_pages():
        # a fence line closes the expected output of the example above it
        text = re.sub(r"^\s*```.*$", "", page.read_text(encoding="utf-8"), flags=re.M)
        test = parser.get_doctest(text, {}, page.name, str(page), 0)
        if test.examples:
            runner.run(test)
            ran += len(test.examples)
    result = runner.summarize(verbose=False)
    assert ran >= 5 and result.failed == 0, f"{result.failed} of {ran} examples failed (printed above)"


def test_every_benchmark_script_is_listed_on_the_benchmarks_page():
    """The scripts table of docs/BENCHMARKS.md names every script in bench/ (and no other)."""
    page = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `bench/(\w+\.py)` \|", page, re.M))
    assert listed == {p.name for p in (ROOT / "bench").glob("*.py")}
