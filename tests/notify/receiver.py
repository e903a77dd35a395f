"""A webhook receiver on 127.0.0.1 for the notification tests (an `http.server` thread).

It records every request (headers and the exact body), answers 500 for its first `fail_first`
requests and 204 after, and, while `hold` is set, keeps each request waiting until released.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    fail_first: int = 0
    hold: bool = False
    requests: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    url: str = ""

    def answer(self, received: Received) -> int:
        self.requests.append(received)
        self.arrived.set()
        if self.hold:
            self.release.wait(timeout=20)
        return 500 if len(self.requests) <= self.fail_first else 204


def start_receiver(receiver: Receiver) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            status = receiver.answer(Received(dict(self.headers.items()), body))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    return server


class DripServer:
    """A hostile receiver on 127.0.0.1: `drip` answers one byte every `every` seconds and
    never finishes; `redirect` answers 302 to `location`. It counts the requests it gets."""

    def __init__(self, *, mode: str, every: float = 0.5, location: str = "") -> None:
        self.mode, self.every, self.location = mode, every, location
        self.requests = 0
        self.stop = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                owner.requests += 1
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if owner.mode == "redirect":
                    self.send_response(302)
                    self.send_header("Location", owner.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 10_000:
                    if owner.stop.wait(owner.every):
                        return
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()
