"""The light half of house rules: which pack applies now, and how tables and caches follow it.

Every system's tables module and checks import this on a cold `python -m rules odds` call, so
it holds no dataclasses and imports nothing heavy; packs themselves (their schemas, validation,
diff and odds comparison) are `rules.house`, imported only when a pack is loaded or edited.
See `rules.house` for the whole story.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rules.house import Pack as Pack

F = TypeVar("F", bound=Callable[..., Any])

_ACTIVE: ContextVar[Pack | None] = ContextVar("muster_house_pack", default=None)


def lookup(module: str, name: str, base: Mapping[str, Any]) -> Any:
    """The value of an editable constant: the applied pack's if it sets it, else the base one.

    Called from each tables module's `__getattr__`; raises KeyError for a name it does not hold.
    """
    pack = _ACTIVE.get()
    if pack is not None:
        overrides = pack.by_module.get(module)
        if overrides is not None and name in overrides:
            return overrides[name]
    return base[name]


def reader(module: str, base: Mapping[str, Any]) -> Callable[[str], Any]:
    """`name -> value` under the applied pack, for the tables module's own code, where a bare
    global of an editable name does not exist (module `__getattr__` serves attribute access)."""

    def read(name: str) -> Any:
        return lookup(module, name, base)

    return read


def module_getattr(module: str, base: Mapping[str, Any]) -> Callable[[str], Any]:
    """A tables module's `__getattr__`, serving `base`'s names through the applied pack."""

    def __getattr__(name: str) -> Any:
        try:
            return lookup(module, name, base)
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None

    return __getattr__


def active() -> Pack | None:
    """The pack applied in this context, if any."""
    return _ACTIVE.get()


@contextmanager
def applied(pack: Pack | None) -> Iterator[None]:
    """Run the body with `pack` applied (None: the base rules)."""
    token = _ACTIVE.set(pack)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def under(pack: Pack | None, fn: F) -> F:
    """`fn`, always called with `pack` applied."""

    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        token = _ACTIVE.set(pack)
        try:
            return fn(*args, **kwargs)
        finally:
            _ACTIVE.reset(token)

    return run  # type: ignore[return-value]


def under_resolver(pack: Pack | None, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`under` for a check's resolver (params, dice): no argument packing on the hot path."""
    set_pack, reset = _ACTIVE.set, _ACTIVE.reset

    def resolve(params: Any, dice: Any) -> Any:
        token = set_pack(pack)
        try:
            return fn(params, dice)
        finally:
            reset(token)

    return resolve


def under_odds(pack: Pack | None, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`under` for a check's odds function (params), keeping its `cache_clear` for the bench."""
    set_pack, reset = _ACTIVE.set, _ACTIVE.reset

    def odds(params: Any) -> Any:
        token = set_pack(pack)
        try:
            return fn(params)
        finally:
            reset(token)

    clear = getattr(fn, "cache_clear", None)
    if clear is not None:
        odds.cache_clear = clear  # type: ignore[attr-defined]
    return odds


def house_cache(maxsize: int | None = 4096) -> Callable[[F], F]:
    """`functools.lru_cache` keyed also on the applied pack: one pack's odds never serve
    another's."""

    def decorate(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(lambda _digest, *args: fn(*args))

        @wraps(fn)
        def call(*args: Any) -> Any:
            pack = _ACTIVE.get()
            return cached(pack.digest if pack is not None else "", *args)

        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate
