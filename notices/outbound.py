"""One webhook POST that cannot be turned on the house.

- The host is resolved here and every address it resolves to must be public: loopback,
  private, link-local (the cloud metadata address 169.254.169.254 among them), shared, reserved
  and multicast addresses are refused, unless the host is named in `NOTIFY_INTERNAL_HOSTS` (a
  club's own bot on its own network).
- The connection goes to the address that was checked (pinned), never to a second lookup, so a
  DNS answer that changes between the check and the connect (a rebind) cannot slip through; TLS
  still verifies the certificate against the host name.
- Redirects are never followed (http.client does not), so a public receiver cannot bounce the
  worker onto an internal one.
- One wall-clock deadline covers the whole delivery (`NOTIFY_TIMEOUT_SECONDS`): a receiver that
  drips a byte every second would reset a per-read timeout for ever, so a timer shuts the
  socket when the deadline passes, whatever the receiver is doing.
- Every network failure reads the same ("could not deliver to the receiver"): a refused port
  and a filtered one must not be told apart, or the hook is a port scanner.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

COULD_NOT_DELIVER = "could not deliver to the receiver"
NOT_PUBLIC = (
    "the webhook's host is not a public address (loopback, private, link-local and metadata "
    "addresses are refused; NOTIFY_INTERNAL_HOSTS names internal hosts that are allowed)"
)


class Refused(Exception):
    """The delivery was not attempted or did not complete; the message is safe to show."""


@dataclass(frozen=True)
class Answer:
    status: int
    reason: str


def internal_hosts() -> set[str]:
    return {name.strip().lower().rstrip(".") for name in settings.NOTIFY_INTERNAL_HOSTS if name}


def is_public(address: str) -> bool:
    """True for an address on the public internet (an IPv4-mapped IPv6 one judged as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def host_is_allowed(host: str) -> bool:
    return host.lower().rstrip(".") in internal_hosts()


def _resolve(host: str, port: int, deadline: float) -> list[str]:
    """Every address the host resolves to, within the deadline (getaddrinfo has no timeout)."""
    found: list[str] = []
    failure: list[BaseException] = []

    def lookup() -> None:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            found.extend(dict.fromkeys(str(info[4][0]) for info in infos))
        except (OSError, UnicodeError) as error:
            failure.append(error)

    worker = threading.Thread(target=lookup, daemon=True, name="muster-notify-dns")
    worker.start()
    worker.join(max(deadline - time.monotonic(), 0))
    if worker.is_alive() or failure or not found:
        raise Refused(COULD_NOT_DELIVER)
    return found


def pick_address(host: str, port: int, deadline: float) -> str:
    """The address to connect to: the first one, after every one was checked."""
    addresses = _resolve(host, port, deadline)
    if not host_is_allowed(host) and not all(is_public(a) for a in addresses):
        raise Refused(NOT_PUBLIC)
    return addresses[0]


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to a checked address; the Host header still names the host."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.pinned = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.pinned, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address; the certificate is verified against the host name."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.pinned = address

    def connect(self) -> None:
        raw = socket.create_connection((self.pinned, self.port), self.timeout)
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)


def _cut_at(deadline: float, connection: http.client.HTTPConnection) -> threading.Timer:
    """Shut the connection's socket when the deadline passes, unblocking any read or write."""

    def cut() -> None:
        sock = connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed: nothing left to cut
                sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(max(deadline - time.monotonic(), 0), cut)
    timer.daemon = True
    timer.start()
    return timer


def post(url: str, body: bytes, headers: dict[str, str], *, seconds: float) -> Answer:
    """POST the body and return the receiver's status; Refused when that cannot be done."""
    deadline = time.monotonic() + seconds
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("the webhook's address is not an http(s) URL with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("the webhook's address has a bad port") from None
    address = pick_address(parts.hostname, port, deadline)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(parts.hostname, port, address=address, timeout=seconds)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    timer = _cut_at(deadline, connection)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        if time.monotonic() > deadline:
            raise Refused(COULD_NOT_DELIVER)
        return Answer(response.status, response.reason)
    except (OSError, http.client.HTTPException, ValueError):
        raise Refused(COULD_NOT_DELIVER) from None
    finally:
        timer.cancel()
        connection.close()
