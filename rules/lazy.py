"""Parts of a rule system that are imported the first time they are used, not at registration.

`python -m rules odds` needs a system's stats and checks, not its campaign procedure, its
auto-resolver or its activation methods; those modules (and what they pull in, such as
`rules.aftermath`) are a third of a cold call's imports. A system names them by module and
attribute instead, and the first call or lookup imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from typing import Any, TypeVar

V = TypeVar("V")


def imported_later(module: str, name: str) -> Callable[..., Any]:
    """Return a function that imports `module` on its first call and calls its `name`, the
    function found then (a later replacement of `module.name` is not seen)."""

    # The function once imported: a batch of auto-resolved battles calls it a thousand times,
    # and `import_module` runs Python code on every call, even for a module already loaded.
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(import_module(module), name))
        return found[0](*args, **kwargs)

    call.__name__ = name
    call.__qualname__ = f"{module}.{name}"
    call.__doc__ = f"{module}.{name}, imported on first use."
    return call


class MappingImportedLater(Mapping[str, V]):
    """The mapping `module.name`, imported the first time a key or the length is asked for."""

    def __init__(self, module: str, name: str) -> None:
        self._module, self._name = module, name
        self._loaded: Mapping[str, V] | None = None

    def _mapping(self) -> Mapping[str, V]:
        if self._loaded is None:
            self._loaded = getattr(import_module(self._module), self._name)
        return self._loaded

    def __getitem__(self, key: str) -> V:
        return self._mapping()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return f"MappingImportedLater({self._module}.{self._name})"
