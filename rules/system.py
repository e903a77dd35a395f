"""A rule system: everything Muster knows about one game, and the registry of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from rules.errors import RulesError, UnknownCheck, UnknownSystem
from rules.lazy import imported_later

if TYPE_CHECKING:  # types only: a system's checks import what they use, the rest stays unloaded
    from rules.activation import ActivationMethod
    from rules.campaign import PostBattle
    from rules.checks import Check
    from rules.house import HouseSpec, Pack
    from rules.schema import Schema
    from rules.simulate import Simulator
    from rules.words import Words

LabelText = Callable[[str, Mapping[str, Any]], tuple[str, ...]]
Tables = Callable[[Mapping[str, Any]], dict[str, Any]]
InitialState = Callable[[Mapping[str, Any]], dict[str, Any]]
SettleState = Callable[[dict[str, Any]], None]


#: The default campaign procedure (none), imported only if a system without one is asked for it.
_NO_POST_BATTLE = imported_later("rules.campaign", "no_post_battle")


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
    rules rather than the text's own. `words` is its vocabulary for plain-words narration, the
    `WORDS` of the module `words_from`.
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
    post_battle: PostBattle = _NO_POST_BATTLE
    house_rules: bool = False
    activation: Mapping[str, ActivationMethod] = field(default_factory=dict)
    simulate: Simulator | None = None
    statuses: tuple[str, ...] = ("unhurt", "wounded", "out", "dead", "routed")
    description: str = ""
    #: Applies what a figure's accumulated state implies once a check's effects are in (a check
    #: sees one hit, not the total: six Rencounter wound points kill, 15 Hits remove a unit).
    settle_state: SettleState = _nothing_to_settle
    #: The battle-state key that counts the harm a figure takes ("wounds"; Game the 90%'s
    #: units take "hits"), and whether it counts down from the start (Escarmouche's wounds
    #: left) rather than up: what the after page and careers read as "wounds taken".
    harm: str = "wounds"
    harm_counts_down: bool = False
    #: The module whose `WORDS` are the system's own words for its outcomes, state keys and
    #: procedures (`rules.narrate`), imported when first asked for: only narration needs them.
    words_from: str = ""
    #: The module whose `HOUSE` (`rules.house.HouseSpec`) says which tables a club may edit,
    #: imported when first asked for: only house rules need it.
    house_from: str = ""
    #: The house-rules pack this system runs under (None: the rules as written); set only by
    #: `with_house`, which makes every check, table and procedure read the pack's tables.
    pack: Pack | None = None
    #: The system's editable tables as one frozen snapshot (a frozen dataclass, compared and
    #: hashed by identity): the text's, or under `with_house` a pack's, built with
    #: `dataclasses.replace` once per pack. The checks, reference tables, procedures and
    #: simulation of this system object were built from it (`HouseSpec.built_from`) and read
    #: nothing else: a table is a value handed down, never a module attribute looked up.
    snapshot: Any = None

    @property
    def house(self) -> HouseSpec | None:
        """The system's editable tables, or None if a club cannot edit any."""
        if not self.house_from:
            return None
        spec: HouseSpec = import_module(self.house_from).HOUSE
        return spec

    def with_house(self, pack: Any) -> RuleSystem:
        """This system under a house-rules pack (a `Pack` or its JSON document; None: as written).

        The result's checks validate their parameters against the pack's tables (a weapon the
        club added is a choice) and resolve, price and simulate with them. Built once per pack.
        """
        base = _REGISTRY.get(self.key, self) if self.pack is not None else self
        if pack is None:
            return base
        from rules import house

        loaded = house.load(base, pack)
        cached = _HOUSED.get((base.key, loaded.digest))
        if cached is None:
            if len(_HOUSED) >= _HOUSED_MAX:
                _HOUSED.pop(next(iter(_HOUSED)))  # the oldest: a club's packs are few
            cached = _HOUSED[(base.key, loaded.digest)] = _housed(base, loaded)
        return cached

    def changed_tables(self) -> tuple[str, ...]:
        """The editable tables this system's pack changes (none under the rules as written):
        what a sheet marks as house rules."""
        return self.pack.changed_tables() if self.pack is not None else ()

    @property
    def words(self) -> Words:
        """The system's words (`rules.words.Words`); none of its own without `words_from`."""
        if not self.words_from:
            from rules.words import NO_WORDS

            return NO_WORDS
        words: Words = import_module(self.words_from).WORDS
        return words

    def harm_taken(self, stats: Mapping[str, Any], state: Mapping[str, Any]) -> int:
        """Return the wounds (or Hits) a figure took in this battle: its state against its start."""
        start = int(self.initial_state(stats).get(self.harm) or 0)
        now = int(state.get(self.harm) or 0)
        return max(0, start - now if self.harm_counts_down else now - start)

    def end_status(self, stats: Mapping[str, Any], state: Mapping[str, Any]) -> str:
        """Return the status the state means: "wounded" for a figure left "unhurt" but hurt.

        Some systems never set a status on a hit (Escarmouche counts wounds down, Game the 90%
        adds Hits); the record must still say the figure was hurt.
        """
        status = str(state.get("status") or "unhurt")
        if status == "unhurt" and self.harm_taken(stats, state):
            return "wounded"
        return status

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


#: Systems built under a pack, by (system key, pack digest): built once per pack version.
_HOUSED: dict[tuple[str, str], RuleSystem] = {}
_HOUSED_MAX = 64


def _housed(system: RuleSystem, pack: Pack) -> RuleSystem:
    """The system rebuilt from its snapshot with the pack's tables replaced in it: the parts
    that read a table are built from the pack's snapshot by the system's `HouseSpec.built_from`."""
    from dataclasses import replace

    spec = system.house
    if spec is None or system.snapshot is None:
        raise RulesError(f"{system.name} has no tables snapshot for house rules")
    snapshot = replace(system.snapshot, **pack.by_module.get(spec.module, {}))
    parts = spec.built_from(snapshot, pack.changed_tables())
    return replace(system, **parts, snapshot=snapshot, pack=pack)


def register(system: RuleSystem) -> RuleSystem:
    """Add a system to the registry (idempotent for the same object)."""
    existing = _REGISTRY.get(system.key)
    if existing is not None and existing is not system:
        raise ValueError(f"rule system {system.key!r} is registered twice")
    _REGISTRY[system.key] = system
    return system


def get_system(key: str) -> RuleSystem:
    """Return the system registered under `key` or raise UnknownSystem."""
    from rules.systems import load

    if key not in _REGISTRY:
        load(key)  # just this one: the others stay unimported
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(s.key for s in all_systems())
        raise UnknownSystem(f"no rule system {key!r}; known systems: {known}") from None


def all_systems() -> tuple[RuleSystem, ...]:
    """Return every system, Muster's own in their fixed order, then any registered besides."""
    from rules.systems import SYSTEM_KEYS, load_all

    load_all()
    ordered = [_REGISTRY[k] for k in SYSTEM_KEYS if k in _REGISTRY]
    return (*ordered, *(s for k, s in _REGISTRY.items() if k not in SYSTEM_KEYS))


def system_choices() -> tuple[tuple[str, str], ...]:
    """Return (key, name) pairs, e.g. for a Django choices list."""
    return tuple((s.key, s.name) for s in all_systems())
