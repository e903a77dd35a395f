"""Django's Redis caches keep one connection pool per process (config/redis_pool.py).

Under ASGI every request has a cache object of its own; without the shared pool each one
opened a new Redis connection.
"""

import asyncio

from asgiref.sync import sync_to_async
from django.core.cache.backends.redis import RedisCache

from config.redis_pool import SharedConnectionPool

URL = "redis://127.0.0.1:6379/14"
OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}


def _cache() -> RedisCache:
    return RedisCache(URL, {"OPTIONS": {**OPTIONS, "pool_class": SharedConnectionPool}})


def _pool(cache: RedisCache) -> object:
    # Building the pool opens no connection: no Redis is needed to compare them.
    return cache._cache._get_connection_pool(write=True)


def test_every_request_context_gets_the_process_pool():
    async def requests() -> list[object]:
        # Each request's view runs in a context of its own, as under Django's ASGI handler.
        tasks = [asyncio.create_task(sync_to_async(lambda: _pool(_cache()))()) for _ in range(4)]
        return list(await asyncio.gather(*tasks))

    pools = asyncio.run(requests())

    assert len({id(pool) for pool in pools}) == 1
    assert isinstance(pools[0], SharedConnectionPool)


def test_another_address_or_other_options_get_a_pool_of_their_own():
    same = SharedConnectionPool.from_url(URL, **OPTIONS)
    other_db = SharedConnectionPool.from_url("redis://127.0.0.1:6379/13", **OPTIONS)
    other_timeout = SharedConnectionPool.from_url(URL, socket_connect_timeout=2, socket_timeout=1)

    assert SharedConnectionPool.from_url(URL, **OPTIONS) is same
    assert other_db is not same and other_timeout is not same
    assert other_db.connection_kwargs["db"] == 13


def test_the_settings_give_both_redis_caches_the_shared_pool():
    from config import settings as project

    redis_caches = [
        params for params in project.CACHES.values() if params["BACKEND"].endswith("RedisCache")
    ]
    for params in redis_caches:
        assert params["OPTIONS"]["pool_class"] == "config.redis_pool.SharedConnectionPool"
