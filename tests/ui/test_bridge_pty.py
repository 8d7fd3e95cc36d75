"""`countlo play --listen` in a real pseudo-terminal: what the page sends interrupts the
prompt_toolkit prompt, is logged like a typed step, and leaves what the player was typing as it
was; a count typed in the terminal still goes into the same game."""

from __future__ import annotations

import http.client
import json
import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from conftest import ROOT  # noqa: E402

from countlo.formats.transcript import load  # noqa: E402

ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78]|\][^\x07]*\x07)")
PAGE = "https://game.example"


def post(port: int, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", path, body=json.dumps(body), headers={"Origin": PAGE})
    reply = json.loads(conn.getresponse().read())
    conn.close()
    return reply


class Screen:
    """What the child printed, without its escape codes, read until a pattern shows up."""

    def __init__(self, child):
        self.child, self.text, self.seen = child, "", 0

    def expect(self, pattern: str) -> re.Match:
        while True:
            m = re.compile(pattern).search(self.text, self.seen)
            if m:
                self.seen = m.end()
                return m
            try:
                self.text += ANSI.sub("", self.child.read_nonblocking(4096, timeout=30))
            except (pexpect.EOF, pexpect.TIMEOUT):
                pytest.fail(f"{pattern!r} never came; the screen: {self.text[-1500:]}")


def test_the_page_interrupts_the_prompt_and_typing_still_works(tmp_path: Path):
    transcript = tmp_path / "game.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1",
           "COLUMNS": "80", "LINES": "30", "LANGUAGE": "en", "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "countlo", "play", "--listen", "0", "--approve", PAGE,
                                           "--transcript", str(transcript)],
                          env=env, cwd=str(ROOT), dimensions=(30, 80), encoding="utf-8", timeout=30)
    screen = Screen(child)
    port = int(screen.expect(r"127\.0\.0\.1:(\d+); pairing code").group(1))
    screen.expect("Starting count shown by the game")
    token = post(port, "/pair", {"page": "p", "next": 0})["token"]
    post(port, "/event", {"token": token, "page": "p", "seq": 0, "kind": "init", "count": 15})
    screen.expect("start: 15 lit")
    screen.expect(r"Count after \w+\d \[")
    child.send("hist")  # the player starts typing a command; the page's click (on C2) comes first
    screen.expect("hist")
    post(port, "/event", {"token": token, "page": "p", "seq": 1, "kind": "click", "cell": 8, "count": 14,
                          "before": 15})
    screen.expect(r"1\. C2  -> 14")
    listed = screen.expect(r"Count after \w+\d \[([0-9 ]+)\]").group(1).split()
    child.send("ory\r")  # what was typed is still there: "history"
    screen.expect(r"0\. start -> 15\s+1\. C2  -> 14")
    child.send(listed[0] + "\r")  # a count typed in the terminal goes into the same game
    screen.expect(rf"2\. \w+\d +-> +{listed[0]}\b")
    child.send("quit\r")
    screen.expect("Left after 2 clicks")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = load(str(transcript)).record
    assert record.start == 15 and [(s.cell, s.count) for s in record.steps][:1] == [(8, 14)]
    assert [s.count for s in record.steps] == [14, int(listed[0])]
    assert "Traceback" not in screen.text + ANSI.sub("", child.before or "")
