"""`python -m config.healthcheck`: the web container's healthcheck (exit 0 when /healthz is 200).

It asks gunicorn directly on 127.0.0.1, so it sends what the TLS proxy would: a Host the site
allows (the first of ALLOWED_HOSTS) and `X-Forwarded-Proto: https`, otherwise production's
HTTPS redirect and host check would answer 301 or 400 to a perfectly healthy app.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 4


def probe(url: str, host: str) -> int:
    """Return the HTTP status /healthz answers (0 when nothing answers at all)."""
    request = urllib.request.Request(url, headers={"Host": host, "X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (urllib.error.URLError, OSError):
        return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    url = args[0] if args else "http://127.0.0.1:8000/healthz"
    host = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0].strip().lstrip(".")
    host = host if host and host != "*" else "localhost"  # ".example.org" allows example.org
    return 0 if probe(url, host) == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
