"""One Redis connection pool per process for Django's Redis caches (settings CACHES).

Under ASGI each request runs in a context of its own, and Django's cache handler keeps a
cache object per context: each request built a RedisCache, a connection pool and a new
connection (a TCP connect, a handshake, and redis-py reading its own package metadata, ~2 ms
of CPU), which the sessions and throttles then used once. Django builds its pools through
the `pool_class` option (`pool_class.from_url(url, **options)`); this class answers that call
with the process's pool for the same address and options, so connections are kept and reused
across requests, as under a WSGI worker. redis-py's pool is thread-safe and, after a fork
(Celery's prefork pool), drops the parent's connections by itself.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

_shared: dict[tuple[str, str], redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **options: Any) -> SharedConnectionPool:
        """Return this process's pool for `url` and `options`, made on the first call."""
        key = (url, repr(sorted(options.items())))
        with _lock:
            pool = _shared.get(key)
            if pool is None:
                pool = _shared[key] = super().from_url(url, **options)
        assert isinstance(pool, SharedConnectionPool)
        return pool
