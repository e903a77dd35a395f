"""A rule system: everything Muster knows about one game, and the registry of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.activation import ActivationMethod
from rules.campaign import PostBattle, no_post_battle
from rules.checks import Check
from rules.errors import UnknownCheck, UnknownSystem
from rules.schema import Schema
from rules.simulate import Simulator
from rules.words import NO_WORDS, Words

LabelText = Callable[[str, Mapping[str, Any]], tuple[str, ...]]
Tables = Callable[[Mapping[str, Any]], dict[str, Any]]
InitialState = Callable[[Mapping[str, Any]], dict[str, Any]]
SettleState = Callable[[dict[str, Any]], None]


def _nothing_to_settle(state: dict[str, Any]) -> None:
    """The default: a system whose checks set every consequence themselves."""


@dataclass(frozen=True)
class CardLayout:
    """What a unit card shows for this system: sections in order, each a list of stat names.

    `sections` is a tuple of (heading, stat field names); `track` names the battle-state value
    drawn as boxes to mark (e.g. wounds); `track_size` names the stat that gives the number of
    boxes, and `track_boxes` is the number when no stat does (or the stat is missing).
    """

    sections: tuple[tuple[str, tuple[str, ...]], ...]
    track: str = "wounds"
    track_size: str | None = None
    notes: str = ""
    track_boxes: int = 6

    def boxes_for(self, stats: Mapping[str, Any]) -> int:
        """Return how many track boxes a figure with these stats gets on its card."""
        size = stats.get(self.track_size) if self.track_size else None
        return (
            size
            if isinstance(size, int) and not isinstance(size, bool) and size > 0
            else self.track_boxes
        )


@dataclass(frozen=True)
class RuleSystem:
    """One rule system.

    `stats` is a named figure's stat schema (for `piece == "unit"` systems, the unit's).
    `options` is the campaign option schema (house rules). `tables(options)` returns the
    reference tables as JSON, reflecting the options. `label_text(name, stats)` returns the
    lines for a base sticker. `initial_state(stats)` is a figure's battle state at the start.
    `post_battle` is the campaign procedure; `house_rules` says it is Muster's house campaign
    rules rather than the text's own. `words` is its vocabulary for plain-words narration.
    """

    key: str
    name: str
    source: str
    scale: str
    stats: Schema
    options: Schema
    checks: Mapping[str, Check]
    tables: Tables
    label_text: LabelText
    initial_state: InitialState
    card: CardLayout
    piece: str = "figure"
    post_battle: PostBattle = no_post_battle
    house_rules: bool = False
    activation: Mapping[str, ActivationMethod] = field(default_factory=dict)
    simulate: Simulator | None = None
    statuses: tuple[str, ...] = ("unhurt", "wounded", "out", "dead", "routed")
    description: str = ""
    #: Applies what a figure's accumulated state implies once a check's effects are in (a check
    #: sees one hit, not the total: six Rencounter wound points kill, 15 Hits remove a unit).
    settle_state: SettleState = _nothing_to_settle
    #: The system's own words for its outcomes, state keys and procedures (`rules.narrate`).
    words: Words = NO_WORDS

    def check(self, name: str) -> Check:
        try:
            return self.checks[name]
        except KeyError:
            known = ", ".join(sorted(self.checks))
            raise UnknownCheck(f"{self.key} has no check {name!r}; it has {known}") from None

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "source": self.source,
            "scale": self.scale,
            "piece": self.piece,
            "description": self.description,
            "stats": self.stats.as_json(),
            "options": self.options.as_json(),
            "house_rules": self.house_rules,
            "checks": {name: check.as_json() for name, check in self.checks.items()},
            "activation": {name: m.title for name, m in self.activation.items()},
            "auto_resolve": self.simulate is not None,
            "statuses": list(self.statuses),
        }


_REGISTRY: dict[str, RuleSystem] = {}


def register(system: RuleSystem) -> RuleSystem:
    """Add a system to the registry (idempotent for the same object)."""
    existing = _REGISTRY.get(system.key)
    if existing is not None and existing is not system:
        raise ValueError(f"rule system {system.key!r} is registered twice")
    _REGISTRY[system.key] = system
    return system


def get_system(key: str) -> RuleSystem:
    """Return the system registered under `key` or raise UnknownSystem."""
    _load()
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownSystem(f"no rule system {key!r}; known systems: {known}") from None


def all_systems() -> tuple[RuleSystem, ...]:
    """Return every registered system, in registration order."""
    _load()
    return tuple(_REGISTRY.values())


def system_choices() -> tuple[tuple[str, str], ...]:
    """Return (key, name) pairs, e.g. for a Django choices list."""
    return tuple((s.key, s.name) for s in all_systems())


def _load() -> None:
    # Importing the package registers every system; done lazily so `rules.system` has no cycle.
    import rules.systems  # noqa: F401
