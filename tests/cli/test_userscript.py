"""`countlo userscript`: the page's companion script, from the package data, for a port and
more pages; and the option errors of `countlo play --listen`."""

from __future__ import annotations

import re


def test_the_script_has_its_header_and_calls_the_port(run_cli, tmp_path):
    out = run_cli(["userscript", "--port", "5001", "--match", "https://example.org/game/*"]).stdout
    header = out[:out.index("// ==/UserScript==")]
    assert header.startswith("// ==UserScript==\n")
    assert "// @run-at       document-start\n" in header  # wraps fetch before the game's `init`
    assert "// @connect      127.0.0.1\n" in header and "// @grant        GM_xmlhttpRequest\n" in header
    matches = re.findall(r"^// @match +(\S+)$", header, re.M)
    assert matches[-1] == "https://example.org/game/*" and "*://*/problem/CountLightsOut*" in matches
    assert "const PORT = 5001;" in out and "47251" not in out
    assert 'data-countlo-cell' in out and 'data-countlo-next' in out
    path = tmp_path / "countlo.user.js"
    said = run_cli(["userscript", "--out", str(path)])
    assert said.returncode == 0 and said.stdout.startswith(f"Wrote {path}: open it in the browser")
    assert "const PORT = 47251;" in path.read_text(encoding="utf-8")


def test_bad_options_are_one_line_and_exit_2(run_cli, tmp_path):
    for args, said in [
        (["userscript", "--port", "70000"], "a port is 0-65535, not 70000"),
        (["userscript", "--match", "example.org"], "example.org is not a match pattern like https://example.org/*"),
        (["userscript", "--out", str(tmp_path)], f"cannot write {tmp_path}"),
        (["play", "--origin", "https://a.example"], "--origin and --approve go with --listen"),
        (["play", "--listen", "--sim"], "--listen takes the counts from the game page; leave out --sim"),
        (["play", "--listen", "--approve", "https://a.example/page"],
         "https://a.example/page is not an origin like https://example.org"),
    ]:
        r = run_cli(args)
        assert r.returncode == 2, (args, r.stderr)
        assert said in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)
