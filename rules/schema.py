"""Typed field schemas: figure stats, check parameters and campaign options.

One schema drives validation here, the admin's typed form fields, the API serializers and the
CLI's `name=value` parsing, so a range or a choice is stated once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.errors import ValidationError

FieldKind = Literal["int", "bool", "choice", "multichoice", "die", "text", "list"]
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


@dataclass(frozen=True)
class Field:
    """One typed value with its range or choices, default and help text.

    kinds: `int` (min..max), `bool`, `choice` (one of `choices`), `multichoice` (a list of
    distinct choices), `die` (a die size from `choices`, e.g. 4..12 for a d4..d12 trait), `text`
    (up to `max` characters), `list` (a list of free text entries, up to `max` items).
    """

    name: str
    kind: FieldKind
    label: str = ""
    default: Any = None
    min: int | None = None
    max: int | None = None
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""
    required: bool = False
    _canonical: frozenset[Any] = field(default=frozenset(), init=False, repr=False, compare=False)

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def __post_init__(self) -> None:
        # Canonical choice values, looked up on the hot path of every check's validation.
        canonical = frozenset(v for v, _ in self.choices if isinstance(v, str | int))
        object.__setattr__(self, "_canonical", canonical)

    def choice_values(self) -> tuple[Any, ...]:
        return tuple(value for value, _ in self.choices)

    def normalise(self, raw: Any) -> Any:
        """Return the value in its canonical type, or raise ValueError with a message."""
        kind = self.kind
        raw_type = raw.__class__
        # Fast paths: values already canonical (as checks are called in bulk) skip parsing.
        if kind == "int" and raw_type is int and self._in_range(raw):
            return raw
        if kind in ("choice", "die") and raw_type in (str, int) and raw in self._canonical:
            return raw
        if kind == "bool" and raw_type is bool:
            return raw
        if self.kind == "int":
            return self._int(raw)
        if self.kind == "bool":
            return _bool(raw)
        if self.kind in ("choice", "die"):
            return self._choice(raw)
        if self.kind == "multichoice":
            return self._multichoice(raw)
        if self.kind == "text":
            return self._text(raw)
        return self._list(raw)

    def _in_range(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def _int(self, raw: Any) -> int:
        if isinstance(raw, bool) or raw is None:
            raise ValueError("must be a whole number")
        try:
            value = int(raw) if not isinstance(raw, float) or raw.is_integer() else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise ValueError(f"must be a whole number, not {raw!r}")
        if self.min is not None and value < self.min:
            raise ValueError(f"must be at least {self.min}, not {value}")
        if self.max is not None and value > self.max:
            raise ValueError(f"must be at most {self.max}, not {value}")
        return value

    def _choice(self, raw: Any) -> Any:
        values = self.choice_values()
        for value in values:
            if raw == value or (isinstance(raw, str) and raw.strip() == str(value)):
                return value
        allowed = ", ".join(str(v) for v in values)
        raise ValueError(f"must be one of {allowed}, not {raw!r}")

    def _multichoice(self, raw: Any) -> list[Any]:
        items = _as_list(raw)
        picked = [self._choice(item) for item in items]
        if len(set(map(str, picked))) != len(picked):
            raise ValueError("lists the same choice twice")
        if self.max is not None and len(picked) > self.max:
            raise ValueError(f"may hold at most {self.max} entries")
        return picked

    def _text(self, raw: Any) -> str:
        if raw is None:
            raw = ""
        if not isinstance(raw, str | int):
            raise ValueError("must be text")
        value = str(raw).strip()
        if self.max is not None and len(value) > self.max:
            raise ValueError(f"must be at most {self.max} characters")
        return value

    def _list(self, raw: Any) -> list[str]:
        items = [str(item).strip() for item in _as_list(raw)]
        if any(not item for item in items):
            raise ValueError("has an empty entry")
        if self.max is not None and len(items) > self.max:
            raise ValueError(f"may hold at most {self.max} entries")
        return items

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "label": self.title,
            "default": self.default,
            "help": self.help,
            "required": self.required,
        }
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        if self.choices:
            data["choices"] = [{"value": v, "label": label} for v, label in self.choices]
        return data


def _bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
        return raw.strip().lower() in _TRUE
    raise ValueError(f"must be true or false, not {raw!r}")


def _as_list(raw: Any) -> list[Any]:
    if raw is None or raw == "":
        return []
    if isinstance(raw, str):
        return [part.strip() for part in raw.split(",") if part.strip()]
    if isinstance(raw, list | tuple):
        return list(raw)
    raise ValueError("must be a list")


Cleaner = Callable[[dict[str, Any]], dict[str, Any]]

#: How `Schema.validate` accepts an already-canonical value without calling `normalise`.
_INT, _CHOICE, _BOOL, _OTHER = "int", "choice", "bool", "other"
_CHOICE_TYPES = (str, int)
#: (fast kind, canonical choices, lowest int, highest int, the field)
_Step = tuple[str, frozenset[Any], float, float, Field]


def _step(f: Field) -> _Step:
    kind = {"int": _INT, "choice": _CHOICE, "die": _CHOICE, "bool": _BOOL}.get(f.kind, _OTHER)
    low = float("-inf") if f.min is None else f.min
    high = float("inf") if f.max is None else f.max
    return (kind, f._canonical, low, high, f)


@dataclass(frozen=True)
class Schema:
    """An ordered set of fields with an optional cross-field `clean` step.

    `clean(values)` receives the normalised values and returns them (possibly filling derived
    defaults, e.g. horsemanship = experience + 2); it raises `ValidationError` for rules that
    involve more than one field.
    """

    fields: tuple[Field, ...]
    clean: Cleaner | None = None
    description: str = ""
    _index: dict[str, Field] = field(init=False, repr=False, compare=False)
    _plan: dict[str, _Step] = field(init=False, repr=False, compare=False)
    _defaults: dict[str, Any] = field(init=False, repr=False, compare=False)
    _required: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {f.name: f for f in self.fields})
        object.__setattr__(self, "_plan", {f.name: _step(f) for f in self.fields})
        object.__setattr__(self, "_defaults", self.defaults())
        object.__setattr__(self, "_required", tuple(f.name for f in self.fields if f.required))

    def __getitem__(self, name: str) -> Field:
        return self._index[name]

    def __contains__(self, name: object) -> bool:
        return name in self._index

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def defaults(self) -> dict[str, Any]:
        return {f.name: f.default for f in self.fields}

    def validate(self, data: Mapping[str, Any] | None) -> dict[str, Any]:
        """Return normalised values (defaults filled in) or raise naming every bad field."""
        values = self._defaults.copy()  # in field order; given values overwrite
        errors: dict[str, str] = {}
        plan = self._plan
        # Every check resolved validates its parameters, so a value that is already canonical
        # is accepted inline by its field's precomputed step; anything else is `normalise`d.
        for name, raw in (data or {}).items():
            step = plan.get(name)
            if step is None:
                errors[name] = f"unknown field; expected one of {', '.join(self.names)}"
            elif raw is not None:
                kind, accept, low, high, f = step
                if (
                    (kind is _INT and raw.__class__ is int and low <= raw <= high)
                    or (kind is _CHOICE and raw.__class__ in _CHOICE_TYPES and raw in accept)
                    or (kind is _BOOL and raw.__class__ is bool)
                ):
                    values[name] = raw
                    continue
                try:
                    values[name] = f.normalise(raw)
                except ValueError as exc:
                    errors[name] = str(exc)
        for name in self._required:
            if values[name] is None and name not in errors:
                errors[name] = "is required"
        if errors:
            raise ValidationError(errors)
        return self.clean(values) if self.clean else values

    def validate_snapshot(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate a battle's snapshot of a figure: its stats plus what the battle carries in.

        A snapshot is the stats with the character's permanent wounds beside them (they are
        the character's record, not a stat). The stats are validated as usual; the carried-in
        keys pass through unchanged.
        """
        stats = {k: v for k, v in data.items() if k not in SNAPSHOT_KEYS}
        carried = {k: data[k] for k in SNAPSHOT_KEYS if k in data}
        return {**self.validate(stats), **carried}

    def as_json(self) -> list[dict[str, Any]]:
        return [f.as_json() for f in self.fields]


#: Keys a battle's snapshot of a figure holds beside its stats (see `Schema.validate_snapshot`).
SNAPSHOT_KEYS = frozenset({"permanent_wounds"})


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """Parse CLI words `name=value` into a dict, rejecting words without '='."""
    parsed: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValidationError({pair: "parameters are written name=value"})
        parsed[name.strip()] = value.strip()
    return parsed
