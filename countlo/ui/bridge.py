"""The page side of a guided session: pairing, origins, the page's messages in order, and what the
page is shown (`countlo play --listen`; the HTTP server is countlo.ui.listen, the userscript
countlo/ui/countlo.user.js).

Threads: the server's threads call `hello`, `pair`, `event` and `wait`; they only check a
message and queue it (under one lock). The front end's thread, the one that owns the Session,
calls `take(session)`, which applies the queued observations exactly as typed lines would be
("C4 17"), and `publish(session)`, which sets what the page shows. So a page can do nothing a
player at the prompt could not: its observations become counts and clicks of this game, written
to this game's transcript, and nothing else.

Messages (JSON objects, at most MAX_BODY bytes):
  pair   {page, code | token, next, cells}       -> {token, state, words}
  event  {token, page, seq, kind: "init", count}  the page drew a board showing `count` lit
         {token, page, seq, kind: "click", cell, count, before}
                                                  the page's button `cell` was clicked and the
                                                  game answered `count` (`before`: the count shown
                                                  before it, or null)
  wait   token, since                              -> the page's state once its version passes
                                                  `since` (or after a while, unchanged)
A page numbers its messages from 0 (`seq`) and sends them in order; a message already received
is acknowledged again (a reply lost on the way), one from further ahead is refused with the
number expected, so the page sends the missing one first: no observation is lost or taken twice.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard
from urllib.parse import urlsplit

from countlo.board import Shape
from countlo.i18n import _
from countlo.play.advice import Finish
from countlo.ui.picture import Fragments, plain
from countlo.ui.screen import line, sentence
from countlo.ui.session import Session
from countlo.ui.wording import advice_text, clicks, finish_lead, to_go

MAX_BODY = 4096
"""Largest message a page may send, in bytes (the longest real one is about 150)."""

MAX_QUEUE = 512
"""Observations waiting for the session at most (a page clicks a few times a second)."""

RATE = 40
"""Messages a page may send per second, on average; more are refused with 429 until it slows."""

BURST = 80
"""Messages a page may send at once before RATE applies (a page that was offline sends its queue)."""

WRONG_CODE_PAUSE = 1.0
"""Seconds during which pairing is refused after a wrong code (a guessed code takes days)."""

Reply = tuple[int, dict[str, Any]]


@dataclass(frozen=True)
class Observation:
    """One message of the page, checked and numbered: a board drawn (`cell` None) or a click."""

    seq: int
    count: int
    cell: int | None = None
    before: int | None = None


def origin_of(text: str) -> str | None:
    """`scheme://host[:port]` of an http(s) origin, lower case, or None if `text` is not one."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username or parts.password:
        return None
    return f"{parts.scheme}://{parts.hostname.lower()}" + (f":{port}" if port is not None else "")


EXTENSION_SCHEMES = ("chrome-extension://", "moz-extension://", "safari-web-extension://")
"""Origins of a userscript manager's own requests (GM_xmlhttpRequest): no web page can send them."""


class RateLimit:
    """A token bucket: `rate` messages a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.when = float(burst), clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def words() -> dict[str, str]:
    """The overlay's sentences in the language spoken (the page shows them as they are)."""
    return {
        "ask_code": _("Type the code countlo shows in the terminal:"),
        "pair": _("Pair"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "paused": _("Paused: your clicks wait here until you resume."),
        "waiting": _("waiting to be sent to countlo: {n}"),
        "offline": _("No answer from countlo; retrying (your clicks wait here)."),
        "next": _("Next: {cell}"),
        "expect": _("Next: {cell}, the count should become {count}"),
        "solved": _("Solved. Start the next game on this page when you like."),
        "start": _("Waiting for the game's starting count."),
    }


class Bridge:
    """Pairing, origin checks and the ordered queue of one page's observations; see the module."""

    def __init__(self, shape: Shape, origins: tuple[str, ...] = (), approved: tuple[str, ...] = (),
                 code: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.shape = shape
        self.origins = frozenset(origins) | frozenset(approved)  # empty: any http(s) origin, with the code
        self.approved = frozenset(approved)  # these pair without the code
        self.code = code or f"{secrets.randbelow(10**6):06d}"
        self.clock = clock
        self.lock = threading.Condition()
        self.token: str | None = None
        self.page: str | None = None
        self.origin: str | None = None  # the paired page's origin
        self.expect = 0  # the seq of the next message the paired page sends
        self.inbox: deque[Observation] = deque()
        self.notes: list[Fragments] = []  # lines for the terminal, said on the front end's thread
        self.version = 0
        self.state: dict[str, Any] = {"started": False, "next": None, "index": None, "version": 0}
        self.restart = False  # the page drew a new board: this session's game ends
        self.holding = False  # the page's clicks wait: the counts so far contradict each other
        self.message: str | None = None  # the last observation refused, shown on the page
        self.wrong_at = -WRONG_CODE_PAUSE
        self.told: set[str] = set()  # origins already said to be refused
        self.limit = RateLimit(RATE, BURST, clock)
        self.waker: Any = None  # set by a front end: called (from any thread) when work arrives
        self._read, self._write = os.pipe()  # the same news for a front end that waits in select()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)

    # --- the server's side (any thread) -------------------------------------------------
    def check_origin(self, header: str | None, claimed: object = None) -> tuple[str | None, str | None]:
        """(the page's origin, None) if a page from there may talk to countlo, else (None, why).

        A web page's request always carries its Origin, which it cannot forge; a userscript
        manager's own request (GM_xmlhttpRequest) carries the manager's or none, and then the
        origin the script says it runs on is the one checked."""
        raw = header
        if raw is None or raw.startswith(EXTENSION_SCHEMES):
            raw = claimed if isinstance(claimed, str) else None
        if raw is None:
            return None, _("the request names no page origin")
        origin = origin_of(raw)
        if origin is None:
            return None, _("{origin} is not a web page's origin").format(origin=raw[:80])
        if origin in self.approved:
            return origin, None
        if self.origins and origin not in self.origins:
            return None, _("countlo does not accept pages from {origin} (see --origin)").format(origin=origin)
        return origin, None

    def refused(self, origin: str | None, why: str) -> None:
        """Say once in the terminal that pages from `origin` are refused, and why."""
        self.warn(_("A page was refused: {why}").format(why=why), (origin or "")[:80])

    def warn(self, text: str, once: str | None = None) -> None:
        """A line for the terminal, said by the front end's thread (once per `once` key if given)."""
        with self.lock:
            if once is not None:
                if once in self.told:
                    return
                self.told.add(once)
            self.notes.append(line(("class:warn", "! " + text)))
            self.lock.notify_all()
        self.wake()

    def hello(self, origin: str) -> Reply:
        return 200, {"countlo": 1, "words": words(), "cells": self.shape.cells}

    def pair(self, origin: str, body: dict[str, Any]) -> Reply:
        page, nxt, cells = body.get("page"), body.get("next", 0), body.get("cells")
        if not isinstance(page, str) or not 0 < len(page) <= 64:
            return 400, {"error": _("pairing needs the page's id (page)")}
        if not _whole(nxt, 1 << 30):
            return 400, {"error": _("pairing needs the number of the page's next message (next)")}
        if cells is not None and cells != self.shape.cells:
            return 409, {"error": _("the page has {cells} buttons but this session plays a {shape} board").format(
                cells=cells, shape=self.shape)}
        with self.lock:
            token = body.get("token")
            again = token is not None and token == self.token
            if not again and origin not in self.approved:
                if self.clock() - self.wrong_at < WRONG_CODE_PAUSE:
                    return 429, {"error": _("too many tries; wait a second and type the code again")}
                code = body.get("code")
                if code is None:
                    return 403, {"error": _("countlo was restarted or paired another page: type the code "
                                            "shown in the terminal") if token is not None else
                                 _("type the code countlo shows in the terminal"), "code": True}
                if not isinstance(code, str) or code.strip() != self.code:
                    self.wrong_at = self.clock()
                    return 403, {"error": _("wrong code: type the code countlo shows in the terminal"),
                                 "code": True}
            if not again:
                self.token = secrets.token_urlsafe(18)
            replaced = self.page is not None and self.page != page
            # the same page pairing again may not have heard that its last messages arrived: those
            # stay taken (a repeat is acknowledged, not applied twice)
            self.expect = max(self.expect, nxt) if again and not replaced else nxt
            self.page, self.origin = page, origin
            self.notes.append(line(("class:note", "   " + (
                _("The page at {origin} is paired again.") if again and not replaced else
                _("A page at {origin} is paired; the one before it no longer is.") if replaced else
                _("The page at {origin} is paired: its clicks and counts come in by themselves.")).format(
                    origin=origin))))
            self.lock.notify_all()
            state, token = dict(self.state), self.token
        self.wake()
        return 200, {"token": token, "state": state, "words": words()}

    def _paired(self, origin: str, token: object, page: object = None) -> Reply | None:
        """None if the token (and page) are the paired page's, else the refusal."""
        if self.token is None or token != self.token or (page is not None and page != self.page):
            return 403, {"error": _("this page is not paired: type the code countlo shows in the terminal")}
        if origin != self.origin:
            return 403, {"error": _("the page was paired from another origin")}
        return None

    def event(self, origin: str, body: dict[str, Any]) -> Reply:
        with self.lock:
            refused = self._paired(origin, body.get("token"), body.get("page"))
            if refused is not None:
                return refused
            if not self.limit.allow():
                return 429, {"error": _("too many messages at once; the page sends them again")}
            seq = body.get("seq")
            if not _whole(seq, 1 << 30):
                return 400, {"error": _("a message needs its number (seq)"), "expect": self.expect}
            if seq < self.expect:  # received before; its reply was lost on the way
                return 200, {"ok": True, "seq": seq, "again": True, "state": dict(self.state)}
            if seq > self.expect:
                return 409, {"error": _("message {seq} came before message {expect}; send {expect} "
                                        "first").format(seq=seq, expect=self.expect), "expect": self.expect}
            self.expect += 1  # a malformed message uses its number up too: the page goes on
            observation, error = self._observation(seq, body)
            if observation is None:
                self.notes.append(line(("class:warn", "! " + _("The page sent a message countlo cannot "
                                                              "read: {error}").format(error=error))))
                self.lock.notify_all()
                reply: Reply = (400, {"error": error, "expect": self.expect})
            elif len(self.inbox) >= MAX_QUEUE:
                self.expect -= 1
                reply = (429, {"error": _("countlo is behind; the page sends it again"), "expect": self.expect})
            else:
                self.inbox.append(observation)
                self.lock.notify_all()
                reply = (200, {"ok": True, "seq": seq, "state": dict(self.state)})
        self.wake()
        return reply

    def _observation(self, seq: int, body: dict[str, Any]) -> tuple[Observation | None, str]:
        kind, count, cells = body.get("kind"), body.get("count"), self.shape.cells
        if not _whole(count, cells):
            return None, _("message {seq}: the count must be a whole number 0-{cells}").format(seq=seq, cells=cells)
        if kind == "init":
            return Observation(seq, count), ""
        if kind != "click":
            return None, _("message {seq}: the kind must be init or click").format(seq=seq)
        cell, before = body.get("cell"), body.get("before")
        if not _whole(cell, cells - 1):
            return None, _("message {seq}: the cell must be a button number 0-{last}").format(
                seq=seq, last=cells - 1)
        if before is not None and not _whole(before, cells):
            return None, _("message {seq}: the count before must be a whole number 0-{cells}").format(
                seq=seq, cells=cells)
        return Observation(seq, count, cell, before), ""

    def wait(self, origin: str, token: object, since: object, timeout: float) -> Reply:
        """The page's state once its version passes `since`, or unchanged after `timeout` s."""
        with self.lock:
            refused = self._paired(origin, token)
            if refused is not None:
                return refused
            if not _whole(since, 1 << 62):
                since = -1
            end = self.clock() + timeout
            while self.version <= since and token == self.token:
                left = end - self.clock()
                if left <= 0:
                    break
                self.lock.wait(left)
            if token != self.token:
                return 403, {"error": _("another page was paired")}
            return 200, {"state": dict(self.state)}

    def wake(self) -> None:
        """Tell the front end there is work (called from any thread)."""
        with contextlib.suppress(BlockingIOError):  # the pipe is full of news already
            os.write(self._write, b".")
        waker = self.waker
        if waker is not None:
            waker()

    @property
    def wake_fd(self) -> int:
        """A file descriptor readable when there is work (for a front end waiting in select())."""
        return self._read

    def drain(self) -> None:
        """Empty the wake pipe (its news is about to be read)."""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._read, 512):
                pass

    def busy(self) -> bool:
        """True if `take` has something to do (clicks held while the counts contradict do not count)."""
        with self.lock:
            return bool(self.notes or (self.inbox and not self.holding))

    def wait_for_work(self, timeout: float) -> bool:
        """Block until there is work or `timeout` seconds pass; True if there is work."""
        with self.lock:
            if not (self.notes or (self.inbox and not self.holding)):
                self.lock.wait(timeout)
            return bool(self.notes or (self.inbox and not self.holding))

    def close(self) -> None:
        with self.lock:
            self.token = None
            self.lock.notify_all()
        os.close(self._read)
        os.close(self._write)

    # --- the front end's side (the thread that owns the session) -------------------------
    def take(self, session: Session) -> Fragments:
        """Apply what the page sent since the last call, as typed lines; what to print."""
        self.drain()
        out: Fragments = []
        while True:
            with self.lock:
                notes, self.notes = self.notes, []
                head = self.inbox[0] if self.inbox and not self.restart else None
            for n in notes:
                out += n
            if head is None:
                break
            if head.cell is None and session.started:  # a new board: this game ends here
                self.restart = True
                out += self._new_board(session, head.count)
                break
            if head.cell is not None and stuck(session):
                # no click fits the counts so far: the page's clicks wait (in order) until a fix or
                # an undo typed here makes them fit, rather than being lost or read against the
                # wrong record
                if not self.holding:
                    self.message = _("the page's clicks wait until the counts fit again: undo or fix a "
                                     "count in the terminal")
                    out += line(("class:warn", "! " + self.message))
                self.holding = True
                break
            self.holding = False
            with self.lock:
                self.inbox.popleft()
            out += self._apply(session, head)
        self.publish(session)
        return out

    def _new_board(self, session: Session, count: int) -> Fragments:
        if session.writer is not None and not session.guide.done:
            session.writer.note(f"the game page drew a new board ({count} lit): this game ends here")
        session.over = True
        if session.guide.done:
            return line(("class:note", _("The page started a new game ({count} lit).").format(count=count)))
        return line(("class:note", _("The page started a new game ({count} lit); this game ends here and "
                                     "its transcript is kept.").format(count=count)))

    def _apply(self, session: Session, obs: Observation) -> Fragments:
        if obs.cell is None:
            return self._line(session, str(obs.count), None, obs)
        out: Fragments = []
        if not session.started:  # the page's starting count came before countlo was listening
            if obs.before is None:
                return self._refuse(session, obs, _("the starting count was not seen; type it, then "
                                                    "the count after {cell}").format(cell=self._name(obs)))
            out += self._line(session, str(obs.before), None, obs)
        record = session.guide.record
        said = None
        if obs.before is not None and record is not None and not session.guide.done and record.count != obs.before:
            # the page showed the game's own count: the one in the record was typed wrong
            said = _("the page showed {before} before {cell}, but this game's count is {count}").format(
                before=obs.before, cell=self._name(obs), count=record.count)
            out += line(("class:warn", "! " + said))
            fix = f"fix {len(record.steps)} {obs.before}"
            if session.check(fix) is None:
                out += session.handle(fix)
        out += self._line(session, f"{self._name(obs)} {obs.count}", f"{self._name(obs)} {obs.count}!", obs)
        if said is not None and self.message is None:
            self.message = said  # said on the page too, with the fix that followed
        return out

    def _name(self, obs: Observation) -> str:
        return self.shape.name(obs.cell) if obs.cell is not None else ""

    def _line(self, session: Session, text: str, forced: str | None, obs: Observation) -> Fragments:
        """Apply `text` as if typed; the page's count is what the game answered, so a count the
        record calls impossible is insisted on (`forced`) and the guide looks for the typo."""
        reason = session.check(text)
        if reason is not None and forced is not None and session.check(forced) is None:
            text, reason = forced, None
        if reason is not None:
            return self._refuse(session, obs, reason)
        self.message = None
        return session.handle(text)

    def _refuse(self, session: Session, obs: Observation, reason: str) -> Fragments:
        """An observation the session cannot take now: said in the terminal and on the page, and
        kept in the transcript as a note, so it is not lost."""
        what = (f"{self._name(obs)} -> {obs.count}" if obs.cell is not None else f"start {obs.count}")
        if session.writer is not None and session.started:
            session.writer.note(f"from the game page, not taken: {what} ({reason})")
        said = _("The page's {what} was not taken: {reason}").format(what=what, reason=reason)
        self.message = said
        return line(("class:warn", "! " + said))

    def publish(self, session: Session) -> None:
        """Set what the page shows from the session as it stands; wake the page if it changed."""
        state = {**state_of(session), "message": self.message}
        with self.lock:
            if state != {k: v for k, v in self.state.items() if k != "version"}:
                self.version += 1
                self.state = {**state, "version": self.version}
                self.lock.notify_all()


def stuck(session: Session) -> bool:
    """True while no click fits the counts so far (a fix or an undo must come first)."""
    return session.started and not session.over and not session.guide.done and session.advice().phase == "stuck"


def state_of(session: Session) -> dict[str, Any]:
    """What the overlay shows: the next click (cell name and button number), the count it should
    show once the board is known, the status bar's words and the advice."""
    shape = session.shape
    if not session.started:
        return {"started": False, "over": session.over, "clicks": None, "next": None, "index": None, "expect": None,
                "status": plain(session.toolbar(keys=False)).strip(), "advice": None, "solved": False}
    advice = session.advice()
    done = session.guide.done
    target = None if done or session.over or advice.phase == "stuck" else session.target()
    expect = advice.expected if isinstance(advice, Finish) and session.pending is None else None
    outlook = session.outlook() if advice.phase == "probe" and target is not None else None
    if isinstance(advice, Finish):
        said = _("{lead}: {clicks} to go. ").format(lead=finish_lead(advice), clicks=clicks(len(advice.plan))).strip()
    elif outlook is not None:  # the next click is on its own line: say how many are still to come
        said = sentence(to_go(outlook))
    else:
        said = advice_text(shape, advice, session.guide.strategy)
    record = session.guide.record
    return {"started": True, "over": session.over, "clicks": len(record.steps) if record is not None else 0,
            "next": shape.name(target) if target is not None else None,
            "index": target, "expect": expect, "status": plain(session.toolbar(keys=False)).strip(),
            "advice": said, "solved": done}


def _whole(value: object, most: int) -> TypeGuard[int]:
    """True for a whole number 0..most (JSON's true and 3.0 are not)."""
    return type(value) is int and 0 <= value <= most
