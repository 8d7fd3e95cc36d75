"""The local HTTP server of `countlo play --listen`: the game page's userscript talks to the
session's Bridge through it (standard library only).

It listens on 127.0.0.1 and nowhere else, answers only requests addressed to 127.0.0.1 or
localhost (a page cannot reach it through a DNS name it controls), reads at most MAX_BODY bytes
of JSON, and lets a page read an answer (CORS) only when its origin may talk to countlo. Routes:
GET /hello, POST /pair, POST /event, GET /state?token=...&since=... (a long poll); see
countlo.ui.bridge for the messages.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from countlo.errors import CountloError
from countlo.i18n import _, reason
from countlo.ui.bridge import MAX_BODY, Bridge, Reply

HOST = "127.0.0.1"
DEFAULT_PORT = 47251
"""The port the userscript calls unless it was written for another (`countlo userscript --port`)."""

POLL = 20.0
"""Seconds a GET /state waits for news before answering with the state unchanged."""


class ListenError(CountloError, OSError):
    """The server cannot listen (the port is taken, or not allowed)."""


class Handler(BaseHTTPRequestHandler):
    """One request from a page; see the module docstring."""

    server: Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the terminal belongs to the session
        pass

    def _origin(self, body: dict[str, Any] | None = None) -> tuple[str | None, str | None]:
        return self.server.bridge.check_origin(self.headers.get("Origin"), (body or {}).get("origin"))

    def _send(self, reply: Reply, origin: str | None = None) -> None:
        status, payload = reply
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Vary", "Origin")
        header = self.headers.get("Origin")
        if header and origin is not None:
            self.send_header("Access-Control-Allow-Origin", header)
        self.end_headers()
        self.wfile.write(data)

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").lower().rsplit(":", 1)
        if host[0] in ("127.0.0.1", "localhost") and (len(host) == 1 or host[1].isdigit()):
            return True
        self.close_connection = True
        self._send((421, {"error": _("countlo answers only requests to 127.0.0.1")}))
        return False

    def do_OPTIONS(self) -> None:
        if not self._host_ok():
            return
        origin, _why = self._origin()
        self.send_response(204 if origin else 403)
        if origin:
            self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or origin)
            self.send_header("Access-Control-Allow-Methods", "GET, POST")
            self.send_header("Access-Control-Allow-Headers", "Content-Type")
            self.send_header("Access-Control-Allow-Private-Network", "true")  # an https page calling loopback
            self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        origin, why = self._origin(query)
        if origin is None:
            self._refuse(why)
            return
        bridge = self.server.bridge
        if url.path == "/hello":
            self._send(bridge.hello(origin), origin)
        elif url.path == "/state":
            since = query.get("since", "")
            reply = bridge.wait(origin, query.get("token"), int(since) if since.isdigit() and len(since) < 18 else -1,
                                self.server.poll)
            self._send(reply, origin)
        else:
            self._send((404, {"error": _("countlo has no {path}").format(path=url.path[:40])}), origin)

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        body = self._body()
        if body is None:
            return
        origin, why = self._origin(body)
        if origin is None:
            self._refuse(why)
            return
        bridge = self.server.bridge
        path = urlsplit(self.path).path
        if path == "/pair":
            self._send(bridge.pair(origin, body), origin)
        elif path == "/event":
            self._send(bridge.event(origin, body), origin)
        else:
            self._send((404, {"error": _("countlo has no {path}").format(path=path[:40])}), origin)

    def _body(self) -> dict[str, Any] | None:
        """The request's JSON object, or None after answering why it cannot be read."""
        length = self.headers.get("Content-Length", "")
        if not length.isdigit() or len(length) > 9:
            self.close_connection = True
            self._send((411, {"error": _("a message needs its length (Content-Length)")}), "")
            return None
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read: the connection goes with it
            self._send((413, {"error": _("a message is at most {most} bytes, not {size}").format(
                most=MAX_BODY, size=length)}), "")
            return None
        raw = self.rfile.read(int(length))
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self._send((400, {"error": _("a message must be a JSON object")}), "")
            return None
        if not isinstance(body, dict):
            self._send((400, {"error": _("a message must be a JSON object")}), "")
            return None
        return body

    def _refuse(self, why: str | None) -> None:
        """A page countlo does not talk to: told why (it may read this answer, and only this)."""
        self.server.bridge.refused(self.headers.get("Origin"), why or "")
        self._send((403, {"error": why, "refused": True}), "")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, bridge: Bridge, port: int, poll: float = POLL):
        self.bridge, self.poll = bridge, poll
        super().__init__((HOST, port), Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page that goes away mid-answer (a reload, a closed tab) is nothing to report; any
        other failure is one line in the terminal, never a traceback over the session."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        self.bridge.warn(_("a request from the page failed: {reason}").format(
            reason=reason(error) if isinstance(error, OSError) else repr(error)[:120]))


def serve(bridge: Bridge, port: int = DEFAULT_PORT, poll: float = POLL) -> Server:
    """Start the server on 127.0.0.1:`port` (0: any free port) in a background thread."""
    try:
        server = Server(bridge, port, poll)
    except OSError as e:
        raise ListenError(_("cannot listen on {host}:{port}: {reason}; choose another port with --listen "
                            "PORT").format(host=HOST, port=port, reason=reason(e))) from None
    threading.Thread(target=server.serve_forever, name="countlo-listen", daemon=True).start()
    return server
