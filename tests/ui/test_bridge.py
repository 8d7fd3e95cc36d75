"""The bridge between the game page and a guided session, without a browser: pairing, origins,
the order of the page's messages, what a malformed, oversized or out-of-order message gets, and
how the observations reach the session and its transcript (countlo.ui.bridge, countlo.ui.listen).
"""

from __future__ import annotations

import http.client
import json

import pytest

from countlo.board import Shape
from countlo.formats.transcript import Header, Writer, load
from countlo.play.guide import Guide
from countlo.play.oracle import SimulatedOracle
from countlo.ui.bridge import BURST, MAX_BODY, Bridge, origin_of, stuck
from countlo.ui.listen import serve
from countlo.ui.picture import plain
from countlo.ui.session import Session

SHAPE = Shape(6, 6)
PAGE = "https://game.example"


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def game(tmp_path):
    """A session beside a 'real' game (counts from the page), its transcript, and a bridge."""
    path = tmp_path / "t.txt"
    writer = Writer.create(str(path), Header.new(SHAPE, "adaptive", None, "exact"))
    session = Session(Guide(SHAPE), writer, where=str(path))
    clock = Clock()
    bridge = Bridge(SHAPE, code="123456", clock=clock)
    yield session, bridge, path, clock
    writer.close()
    bridge.close()


def paired(bridge: Bridge, page: str = "p1") -> str:
    status, reply = bridge.pair(PAGE, {"page": page, "code": "123456", "next": 0})
    assert status == 200, reply
    return reply["token"]


def test_origins_are_read_as_browsers_send_them():
    assert origin_of("https://Game.Example:8443/") == "https://game.example:8443"
    assert origin_of("http://127.0.0.1:5000") == "http://127.0.0.1:5000"
    for bad in ("null", "file:///x", "https://a.example/page", "javascript:1", "https://u@a.example", ""):
        assert origin_of(bad) is None, bad


def test_pairing_needs_the_code_and_a_wrong_code_waits_a_second(game):
    _session, bridge, _path, clock = game
    status, reply = bridge.pair(PAGE, {"page": "p1", "next": 0})
    assert (status, reply["error"]) == (403, "type the code countlo shows in the terminal")
    status, reply = bridge.pair(PAGE, {"page": "p1", "code": "654321", "next": 0})
    assert (status, reply["error"]) == (403, "wrong code: type the code countlo shows in the terminal")
    status, reply = bridge.pair(PAGE, {"page": "p1", "code": "123456", "next": 0})
    assert (status, reply["error"]) == (429, "too many tries; wait a second and type the code again")
    clock.now += 1.5
    assert bridge.pair(PAGE, {"page": "p1", "code": "123456", "next": 0})[0] == 200


def test_a_page_with_another_board_size_is_refused(game):
    _session, bridge, _path, _clock = game
    status, reply = bridge.pair(PAGE, {"page": "p1", "code": "123456", "next": 0, "cells": 25})
    assert status == 409
    assert reply["error"] == "the page has 25 buttons but this session plays a 6x6 board"


def test_origins_checked_and_approved_ones_pair_without_the_code():
    bridge = Bridge(SHAPE, origins=("https://a.example",), approved=("http://127.0.0.1:9",), code="1")
    try:
        assert bridge.check_origin("https://a.example") == ("https://a.example", None)
        assert bridge.check_origin("https://b.example") == (
            None, "countlo does not accept pages from https://b.example (see --origin)")
        assert bridge.check_origin(None) == (None, "the request names no page origin")
        assert bridge.check_origin("null")[0] is None
        # a userscript manager's own request: the origin the script says it runs on is checked
        assert bridge.check_origin("chrome-extension://abc", "https://a.example")[0] == "https://a.example"
        assert bridge.check_origin("moz-extension://abc", "https://b.example")[0] is None
        assert bridge.pair("http://127.0.0.1:9", {"page": "p", "next": 0})[0] == 200
        assert bridge.pair("https://a.example", {"page": "q", "next": 0})[0] == 403
    finally:
        bridge.close()


def test_messages_in_order_again_and_ahead(game):
    session, bridge, _path, _clock = game
    token = paired(bridge)
    send = lambda seq, **m: bridge.event(PAGE, {"token": token, "page": "p1", "seq": seq, **m})
    assert send(0, kind="init", count=18)[0] == 200
    status, reply = send(2, kind="click", cell=3, count=16)
    assert (status, reply["error"], reply["expect"]) == (409, "message 2 came before message 1; send 1 first", 1)
    assert send(0, kind="init", count=18)[1]["again"] is True  # its reply was lost: taken once
    assert send(1, kind="click", cell=3, count=16)[0] == 200
    assert [o.seq for o in bridge.inbox] == [0, 1]
    plain(bridge.take(session))
    record = session.guide.record
    assert (record.start, [(s.cell, s.count) for s in record.steps]) == (18, [(3, 16)])


@pytest.mark.parametrize("message, error", [
    ({"kind": "click", "cell": 36, "count": 3}, "message 0: the cell must be a button number 0-35"),
    ({"kind": "click", "cell": 2, "count": 37}, "message 0: the count must be a whole number 0-36"),
    ({"kind": "click", "cell": 2, "count": True}, "message 0: the count must be a whole number 0-36"),
    ({"kind": "click", "cell": 2, "count": 3, "before": -1},
     "message 0: the count before must be a whole number 0-36"),
    ({"kind": "run", "count": 3}, "message 0: the kind must be init or click"),
])
def test_a_malformed_message_gets_one_error_and_the_page_goes_on(game, message, error):
    session, bridge, _path, _clock = game
    token = paired(bridge)
    status, reply = bridge.event(PAGE, {"token": token, "page": "p1", "seq": 0, **message})
    assert (status, reply["error"], reply["expect"]) == (400, error, 1)
    assert bridge.event(PAGE, {"token": token, "page": "p1", "seq": 1, "kind": "init", "count": 9})[0] == 200
    said = plain(bridge.take(session))
    assert f"The page sent a message countlo cannot read: {error}" in said
    assert session.guide.record.start == 9 and not session.over


def test_a_page_sending_too_fast_is_told_to_slow_down_and_loses_nothing(game):
    _session, bridge, _path, clock = game
    token = paired(bridge)
    send = lambda seq: bridge.event(PAGE, {"token": token, "page": "p1", "seq": seq, "kind": "init", "count": 5})
    replies = [send(seq)[0] for seq in range(BURST + 5)]
    assert replies[:BURST] == [200] * BURST  # numbers 0..BURST-1 taken
    assert send(BURST) == (429, {"error": "too many messages at once; the page sends them again"})
    assert bridge.expect == BURST  # the refused one keeps its number: it comes again
    clock.now += 1.0
    assert send(BURST)[0] == 200 and len(bridge.inbox) == BURST + 1


def test_an_unpaired_or_replaced_page_is_refused(game):
    _session, bridge, _path, clock = game
    refused = "this page is not paired: type the code countlo shows in the terminal"
    assert bridge.event(PAGE, {"token": "guess", "page": "p1", "seq": 0, "kind": "init", "count": 3}) == \
        (403, {"error": refused})
    old = paired(bridge, "p1")
    clock.now += 2
    paired(bridge, "p2")  # one page at a time: the newest paired one
    assert bridge.event(PAGE, {"token": old, "page": "p1", "seq": 0, "kind": "init", "count": 3})[0] == 403
    assert bridge.wait(PAGE, old, 0, 0.01)[0] == 403
    assert not bridge.inbox


def test_a_page_pairing_again_after_a_lost_reply_does_not_send_a_click_twice(game):
    _session, bridge, _path, _clock = game
    token = paired(bridge, "p1")
    click = {"token": token, "page": "p1", "seq": 0, "kind": "init", "count": 7}
    assert bridge.event(PAGE, click)[0] == 200  # the reply is lost; the page still holds message 0
    assert bridge.pair(PAGE, {"page": "p1", "token": token, "next": 0})[0] == 200
    assert bridge.event(PAGE, click)[1]["again"] is True
    assert len(bridge.inbox) == 1


def test_a_reloaded_page_pairs_again_with_its_token_and_goes_on_from_its_next_message(game):
    _session, bridge, _path, _clock = game
    token = paired(bridge, "p1")
    status, reply = bridge.pair(PAGE, {"page": "p2", "token": token, "next": 0})
    assert status == 200 and reply["token"] == token
    assert bridge.event(PAGE, {"token": token, "page": "p2", "seq": 0, "kind": "init", "count": 5})[0] == 200
    assert bridge.event(PAGE, {"token": token, "page": "p2", "seq": 0, "kind": "init", "count": 5})[1]["again"]


def test_a_count_no_click_could_show_is_kept_and_questioned_and_the_page_waits(game):
    """The page's counts are the game's own: one that no click could show is insisted on, so the
    guide asks in the terminal what went wrong (it never corrects unasked) and the transcript
    keeps it as a note; the page's next click waits until the terminal answers, then comes in,
    so nothing the page saw is lost."""
    session, bridge, path, _clock = game
    token = paired(bridge)
    oracle = SimulatedOracle(SHAPE, 4)
    send = lambda seq, **m: bridge.event(PAGE, {"token": token, "page": "p1", "seq": seq, **m})
    send(0, kind="init", count=oracle.start())
    bridge.take(session)
    cell = session.target()
    send(1, kind="click", cell=cell, count=36, before=oracle.start())  # no click can show 36
    said = plain(bridge.take(session))
    assert f"{SHAPE.name(cell)}  -> 36   contradicts an earlier count" in said
    assert len(session.guide.record.steps) == 0 and not session.over and stuck(session)
    send(2, kind="click", cell=cell, count=oracle.click(cell), before=oracle.start())
    assert "the page's clicks wait until the counts fit again" in plain(bridge.take(session))
    assert bridge.holding and len(session.guide.record.steps) == 0
    session.handle("undo")  # the player takes the impossible count back in the terminal
    bridge.take(session)
    assert len(session.guide.record.steps) == 1 and bridge.state["message"] is None and not bridge.holding
    notes = load(str(path)).notes
    assert any(f"typed {SHAPE.name(cell)} 36" in n for n in notes), notes


def test_a_count_typed_wrong_in_the_terminal_is_fixed_from_the_page(game):
    session, bridge, path, _clock = game
    token = paired(bridge)
    session.handle("17")  # the game showed 18
    cell = session.target()
    oracle = SimulatedOracle(SHAPE, 0, board=(1 << 18) - 1)  # 18 lit
    assert oracle.start() == 18
    bridge.event(PAGE, {"token": token, "page": "p1", "seq": 0, "kind": "click", "cell": cell,
                        "count": oracle.click(cell), "before": 18})
    said = plain(bridge.take(session))
    assert f"! the page showed 18 before {SHAPE.name(cell)}, but this game's count is 17" in said
    assert "fixed: the starting count is 18" in said
    assert bridge.state["message"] == f"the page showed 18 before {SHAPE.name(cell)}, but this game's count is 17"
    record = session.guide.record
    assert record.start == 18 and len(record.steps) == 1
    assert load(str(path)).record == record


def test_clicks_wait_while_the_counts_contradict_and_come_in_after_the_fix(game):
    """Typed counts that no board fits leave the session stuck: the page's clicks wait, in
    order, instead of being refused (and lost) or read against the wrong record."""
    session, bridge, path, _clock = game
    token = paired(bridge)
    for typed in ("1", "A1 2!", "F6 3!"):  # start 1, then two counts only a start of 3 or 5 explains
        session.handle(typed)
    assert session.advice().phase == "stuck"
    bridge.event(PAGE, {"token": token, "page": "p1", "seq": 0, "kind": "click", "cell": 14, "count": 4, "before": 3})
    said = plain(bridge.take(session)).splitlines()
    assert said[-1] == "! the page's clicks wait until the counts fit again: undo or fix a count in the terminal"
    assert len(bridge.inbox) == 1 and not bridge.busy() and len(session.guide.record.steps) == 1  # F6 3 in question
    assert plain(bridge.take(session)) == ""  # said once
    session.handle("fix 0 3")
    bridge.take(session)
    record = session.guide.record
    assert [(s.cell, s.count) for s in record.steps] == [(0, 2), (35, 3)] and not bridge.inbox
    # the page's click came in once the counts fitted again; it fits no board left, so the guide
    # asks about it rather than taking or dropping it, and the transcript has it as it came
    assert stuck(session)
    assert path.read_text().splitlines()[-1] == "C3 4"


def test_a_new_board_ends_the_game_and_waits_for_the_next_session(game):
    session, bridge, path, _clock = game
    token = paired(bridge)
    send = lambda seq, **m: bridge.event(PAGE, {"token": token, "page": "p1", "seq": seq, **m})
    send(0, kind="init", count=12)
    send(1, kind="click", cell=0, count=13, before=12)
    send(2, kind="init", count=20)
    said = plain(bridge.take(session))
    assert "The page started a new game (20 lit); this game ends here" in said
    assert session.over and bridge.restart and len(bridge.inbox) == 1
    notes = load(str(path)).notes
    assert any("new board (20 lit)" in n for n in notes)
    fresh = Session(Guide(SHAPE))
    bridge.restart = False
    bridge.take(fresh)
    assert fresh.guide.record.start == 20


def test_the_state_the_page_shows(game):
    session, bridge, _path, _clock = game
    token = paired(bridge)
    assert bridge.state["started"] is False
    bridge.event(PAGE, {"token": token, "page": "p1", "seq": 0, "kind": "init", "count": 18})
    bridge.take(session)
    state = bridge.state
    assert state["started"] and state["clicks"] == 0
    assert state["index"] == session.target() and state["next"] == SHAPE.name(session.target())
    assert "boards left" in state["status"] and state["version"] >= 1
    status, reply = bridge.wait(PAGE, token, state["version"] - 1, 0.01)
    assert status == 200 and reply["state"] == state


# --- over HTTP -------------------------------------------------------------------------------

@pytest.fixture
def server():
    bridge = Bridge(SHAPE, approved=(PAGE,), code="123456")
    srv = serve(bridge, 0, poll=0.05)
    yield bridge, srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    bridge.close()


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request(method, path, body=body, headers={"Origin": PAGE, **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, json.loads(data) if data else None, r.getheader("Access-Control-Allow-Origin")


def test_http_pairs_and_takes_a_message(server):
    bridge, port = server
    status, reply, allowed = request(port, "POST", "/pair", json.dumps({"page": "p", "next": 0}).encode())
    assert status == 200 and allowed == PAGE
    body = {"token": reply["token"], "page": "p", "seq": 0, "kind": "init", "count": 4}
    assert request(port, "POST", "/event", json.dumps(body).encode())[0] == 200
    assert [o.count for o in bridge.inbox] == [4]
    status, reply, _ = request(port, "GET", f"/state?token={body['token']}&since=0")
    assert status == 200 and "state" in reply


def test_http_refuses_what_it_cannot_read(server):
    bridge, port = server
    status, reply, _ = request(port, "POST", "/pair", b"x" * (MAX_BODY + 1))
    assert (status, reply["error"]) == (413, f"a message is at most {MAX_BODY} bytes, not {MAX_BODY + 1}")
    assert request(port, "POST", "/pair", b"[1, 2]")[1]["error"] == "a message must be a JSON object"
    assert request(port, "POST", "/pair", b"{oops")[1]["error"] == "a message must be a JSON object"
    status, reply, allowed = request(port, "POST", "/pair", b"{}", {"Origin": "https://evil.example"})
    assert status == 403 and reply["refused"] and "https://evil.example" in reply["error"]
    assert allowed == "https://evil.example"  # the page may read why it is refused, and nothing else
    assert request(port, "POST", "/pair", b"{}", {"Host": "evil.example"})[0] == 421
    assert request(port, "GET", "/nothing")[0] == 404
    assert not bridge.inbox and bridge.token is None
    said = plain(bridge.take(Session(Guide(SHAPE))))
    assert said.count("A page was refused") == 1


def test_a_line_too_long_to_be_a_move_is_cut_when_the_bridge_listens_too():
    """The bridged line reader keeps the plain reader's bound: the start of a long line, flagged,
    the rest dropped; the next line whole."""
    import os

    from countlo.ui.terminal import LINE_CHARS, Lines

    class Quiet:  # a bridge with nothing to say
        def __init__(self) -> None:
            self.wake_fd, self._w = os.pipe()

        def drain(self) -> None:
            pass

        def busy(self) -> bool:
            return False

    read, write = os.pipe()
    os.write(write, b"x" * (3 * LINE_CHARS) + b"\nD4 17\n")
    os.close(write)
    with os.fdopen(read) as stdin:
        lines = Lines(stdin, Quiet())
        first = lines.readline()
        assert first == "x" * LINE_CHARS and lines.long
        assert lines.readline() == "D4 17\n" and not lines.long
