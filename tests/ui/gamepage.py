"""A tiny local server for countlo's test game page (tests/ui/gamepage/index.html): the page at
/problem/CountLightsOut and its game server at /api/problem/CountLightsOut/server.

Each `init` draws the next seeded board (the board `countlo play --sim --seed K` plays, through
countlo's SimulatedOracle, so a bridged game can be compared with a simulated one) and answers
its lit count; `toggle` with a button index answers the new count, and `problem` once the board
is dark (also at /rpc, an address the userscript does not know). Standard library only; one lock, so the answers come in the order the clicks were made.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from countlo.board import Shape
from countlo.play.oracle import SimulatedOracle

PAGE = (Path(__file__).parent / "gamepage" / "index.html").read_bytes()
SHAPE = Shape(6, 6)


class Game:
    """The boards a page plays, one seed per `init`."""

    def __init__(self, seeds):
        self.seeds = list(seeds)
        self.oracle: SimulatedOracle | None = None
        self.count: int | None = None
        self.lock = threading.Lock()
        self.inits = 0

    def answer(self, event, data) -> dict:
        with self.lock:
            if event == "init":
                self.oracle = SimulatedOracle(SHAPE, self.seeds[self.inits % len(self.seeds)])
                self.inits += 1
                self.count = self.oracle.start()
                return {"res": self.count}
            if event == "toggle" and self.oracle is not None and isinstance(data, int) and 0 <= data < 36:
                self.count = self.oracle.click(data)
                out = {"res": self.count}
                if self.count == 0:
                    out["problem"] = {"passed": True, "msg": ""}
                return out
            return {"res": None}

    def unchanged(self) -> list[int]:
        """The buttons whose click would leave the count as it is now."""
        with self.lock:
            assert self.oracle is not None
            out = []
            for i in range(36):
                if self.oracle.click(i) == self.count:
                    out.append(i)
                self.oracle.click(i)
            return out


class Handler(BaseHTTPRequestHandler):
    server: GameServer

    def log_message(self, format, *args) -> None:
        pass

    def _send(self, status: int, data: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/problem/CountLightsOut":
            self._send(200, PAGE, "text/html; charset=utf-8")
        else:
            self._send(404, b"not found", "text/plain")

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path.split("?")[0] not in ("/api/problem/CountLightsOut/server", "/rpc"):
            self._send(404, b"{}", "application/json")
            return
        answer = self.server.game.answer(body.get("event"), body.get("data"))
        self._send(200, json.dumps(answer).encode(), "application/json")


class GameServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, seeds):
        self.game = Game(seeds)
        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server_address[1]
