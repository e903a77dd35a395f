"""Grits & Glory (Thomas Jakobsen): a Showdown conversion for pulp skirmish wargaming."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.checks import (
    JUDGED,
    Check,
    Derived,
    FromActor,
    FromEquipment,
    FromState,
    FromTarget,
    Source,
    declare,
)
from rules.lazy import MappingImportedLater, imported_later
from rules.schema import Field, Schema
from rules.system import CardLayout, RuleSystem, register
from rules.systems.grits_and_glory import checks as c
from rules.systems.grits_and_glory import opposed as o
from rules.systems.grits_and_glory import procedures as pr
from rules.systems.grits_and_glory import table_rolls as r
from rules.systems.grits_and_glory.stats import STATS, initial_state, label_text
from rules.systems.grits_and_glory.tables import (
    BASE,
    SCENARIO_BY_ROLL,
    SKILLS,
    TRAITS,
    GGTables,
    Weapon,
    reference_tables,
)

KEY = "grits_and_glory"

OPTIONS = Schema(
    (
        Field(
            "victory_points",
            "bool",
            default=True,
            help="Score the text's victory points (shown on the quick reference).",
        ),
        Field(
            "scenario",
            "choice",
            default="random",
            choices=(("random", "roll a d12"), *((str(n), f"scenario {n}") for n in range(1, 13))),
            help="A fixed standard scenario for the campaign's sheets, or roll a d12 each game.",
        ),
    ),
    description="Campaign options for Grits & Glory.",
)

# --- where each parameter comes from (the table reads these, never a parameter's name) -----


def _wild_die(stats: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """Opposed rolls: "a Wild Card, or a unit of two or more rolling as a group, adds a Wild
    Die" (the unit's figures still standing, from its battle state)."""
    return bool(stats.get("wild_card")) or int(state.get("figures", stats.get("figures", 1))) >= 2


@dataclass(frozen=True)
class _Carried:
    """The largest `attribute` of the weapons a unit carries, read from a weapon table (a
    club's, under its house rules): the Reload N of the slowest (musket 2; most firearms 0), the
    Reach of the longest (spear 1, lance 2). Holds the table's numbers for that attribute, so
    two tables with the same numbers make the same declaration."""

    attribute: str
    values: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, weapons: Mapping[str, Weapon], attribute: str) -> _Carried:
        return cls(attribute, tuple((key, getattr(w, attribute)) for key, w in weapons.items()))

    def __call__(self, stats: Mapping[str, Any], state: Mapping[str, Any]) -> int:
        carried = set(stats.get("weapons", ()))
        return max((value for key, value in self.values if key in carried), default=0)


def _trait_of(trait: str) -> dict[str, Source]:
    """A trait roll of the acting unit: its die and its Wild Card's Wild Die."""
    return {"die": FromActor(trait), "wild_card": FromActor("wild_card")}


def _opposed(trait: str, foe_trait: str) -> dict[str, Source]:
    """An opposed roll: the actor's trait against the target's, a Wild Die for a Wild Card or
    a group, each side's modifiers the player's call."""
    return {
        "die": FromActor(trait),
        "wild_card": Derived("actor", "Wild Die (Wild Card or group)", _wild_die),
        "modifier": JUDGED,
        "foe_die": FromTarget(foe_trait),
        "foe_wild_card": Derived("target", "Wild Die (Wild Card or group)", _wild_die),
        "foe_modifier": JUDGED,
    }


_WOUNDS = FromState("wounds")
_FIGURES = FromState("figures")


def _sources(tables: GGTables) -> dict[str, dict[str, Source]]:
    """Where each check's parameters come from; a weapon's Reload and Reach from the weapon
    table of `tables`."""
    reload = Derived("actor", "Reload", _Carried.of(tables.WEAPONS, "reload"))
    reach = Derived("actor", "Reach", _Carried.of(tables.WEAPONS, "reach"))
    return {
        **_SOURCES,
        "set_weapons": {**_SOURCES["set_weapons"], "reach": reach},
        "reload": {**_SOURCES["reload"], "reload": reload},
    }


#: Where each parameter comes from, but for the ones that read the weapon table (`_sources`).
_SOURCES: dict[str, dict[str, Source]] = {
    # Which trait a plain trait roll tests is the player's call; the Wild Die is the unit's.
    "trait": {
        "die": JUDGED,
        "wild_card": FromActor("wild_card"),
        **dict.fromkeys(("modifier", "tn", "untrained"), JUDGED),
    },
    "group_roll": dict.fromkeys(("die", "modifier", "tn", "untrained"), JUDGED),
    "vigor_test": {**_trait_of("vigor"), "modifier": JUDGED},
    "recover": {**_trait_of("spirit"), "modifier": JUDGED},
    "fighting": {
        **_trait_of("fighting"),
        "parry": FromTarget("parry"),  # the defender's Parry is the number to hit
        "wounds": _WOUNDS,
        **dict.fromkeys(
            ("gang_up", "joker", "actions", "running", "touch", "off_hand", "modifier"), JUDGED
        ),
    },
    "shooting": {
        **_trait_of("shooting"),
        "wounds": _WOUNDS,
        **dict.fromkeys(
            (
                "range",
                "cover",
                "tn",
                "unstable_platform",
                "dark",
                "fog",
                "joker",
                "actions",
                "running",
                "modifier",
            ),
            JUDGED,
        ),
    },
    "autofire": {
        **_trait_of("shooting"),
        "wounds": _WOUNDS,
        **dict.fromkeys(("shots", "fanfire", "range", "cover", "tn", "joker", "modifier"), JUDGED),
    },
    "volley_fire": {
        "die": FromActor("shooting"),
        **dict.fromkeys(("figures", "range", "cover", "tn", "modifier"), JUDGED),
    },
    "damage": {
        "weapon": FromEquipment("weapons"),
        "strength": FromActor("strength"),
        "toughness": FromTarget("toughness"),  # armour included
        "mounted_target": FromTarget("mounted"),
        "target_wild_card": FromTarget("wild_card"),
        "target_shaken": FromState("shaken", of="target", above=0),
        "target_wounds": FromState("wounds", of="target"),
        "target_figures": FromState("figures", of="target"),
        **dict.fromkeys(("raise_hit", "charging", "joker", "modifier"), JUDGED),
    },
    "soak": {**_trait_of("vigor"), "wounds": JUDGED, "modifier": JUDGED},
    "fear": {**_trait_of("spirit"), "figures": _FIGURES, "charged": JUDGED, "modifier": JUDGED},
    "run": {},
    "end_game": {"turn": JUDGED},
    "fortune": {},
    "freak_event": {},
    "reserves": {},
    "sentry": {"joker": JUDGED},
    "stealth": {**_trait_of("stealth"), "figures": _FIGURES, "dark": JUDGED, "modifier": JUDGED},
    "line_of_sight": {},
    "obstacle": {**_trait_of("agility"), "modifier": JUDGED},
    "swim": {**_trait_of("swimming"), "load": JUDGED, "modifier": JUDGED},
    "interrupt": _opposed("agility", "agility"),
    "set_weapons": {**_opposed("agility", "agility"), "reach": JUDGED},
    "intimidate": _opposed("intimidation", "spirit"),
    "taunt": _opposed("taunt", "smarts"),
    "notice": {
        **_opposed("notice", "stealth"),
        **dict.fromkeys(("range", "cover", "dark"), JUDGED),
    },
    "difficult_ground": {"pace": FromActor("pace"), "running": JUDGED, "figures": _FIGURES},
    # Thrown, as the check starts: a launched projectile rolls Shooting instead.
    "area_effect": {
        **_trait_of("throwing"),
        "wounds": _WOUNDS,
        **dict.fromkeys(("delivery", "range", "distance", "joker", "tn", "modifier"), JUDGED),
    },
    "into_melee": {"foes": JUDGED, "friends": JUDGED},
    "reload": {
        "reload": JUDGED,
        "reloading": FromState("reloading"),
        "limited_ammunition": JUDGED,
    },
    "benny_reroll": {
        "die": JUDGED,
        "wild_card": FromActor("wild_card"),
        **dict.fromkeys(("modifier", "tn", "untrained", "bennies", "goal"), JUDGED),
    },
}

#: Checks that concern the acting unit alone (or the whole table): no target to choose.
ALONE = frozenset(
    {
        "trait",
        "group_roll",
        "vigor_test",
        "recover",
        "soak",
        "fear",
        "run",
        "end_game",
        "fortune",
        "freak_event",
        "reserves",
        "sentry",
        "stealth",
        "line_of_sight",
        "obstacle",
        "swim",
        "difficult_ground",
        "area_effect",
        "reload",
        "benny_reroll",
    }
)


def build_checks(tables: GGTables) -> dict[str, Check]:
    """Every check, built from a tables snapshot and carrying its declared sources: the
    checks that read an editable value are built for `tables`, the others are shared."""
    built = (
        c.trait_check(tables),
        c.group_roll_check(tables),
        c.VIGOR_TEST,
        c.RECOVER,
        c.fighting_check(tables),
        c.shooting_check(tables),
        c.autofire_check(tables),
        c.volley_fire_check(tables),
        c.damage_check(tables),
        c.SOAK_CHECK,
        c.FEAR,
        r.RUN,
        r.END_GAME,
        r.FORTUNE,
        r.FREAK_EVENT,
        r.RESERVES,
        r.SENTRY,
        r.stealth_check(tables),
        r.LINE_OF_SIGHT,
        r.obstacle_check(tables),
        r.swim_check(tables),
        o.interrupt_check(tables),
        o.set_weapons_check(tables),
        o.intimidate_check(tables),
        o.taunt_check(tables),
        o.notice_check(tables),
        pr.DIFFICULT_GROUND,
        pr.area_effect_check(tables),
        pr.INTO_MELEE,
        pr.RELOAD,
        pr.benny_reroll_check(tables),
    )
    return declare({check.name: check for check in built}, _sources(tables), ALONE)


SOURCES = _sources(BASE)
CHECKS = build_checks(BASE)

CARD = CardLayout(
    sections=(
        ("Unit", ("figures", "wild_card", "pace", "parry", "toughness", "armour")),
        ("Traits", TRAITS),
        ("Skills", SKILLS),
        ("Gear", ("weapons", "mounted", "causes_fear")),
    ),
    track="wounds",
    track_size=None,
    track_boxes=3,
    notes="Wild Cards: three wound boxes and two Bennies; every unit: a Shaken marker per "
    "figure and a reload marker.",
)


def campaign_tables(options: Mapping[str, Any], *, tables: GGTables = BASE) -> dict[str, Any]:
    """Return the reference tables of `tables`, with the campaign's scenario and scoring
    choices.

    Not named `tables`: that would hide the `tables` submodule from the modules imported
    later (the deck, the campaign, the auto-resolver), which read it as the package's
    attribute.
    """
    data = reference_tables(tables=tables)
    if not options.get("victory_points", True):
        data.pop("victory_points")
    chosen = options.get("scenario", "random")
    if chosen != "random":
        data["campaign_scenario"] = SCENARIO_BY_ROLL[int(chosen)].as_json()
    return data


SYSTEM = register(
    RuleSystem(
        key=KEY,
        name="Grits & Glory",
        source="grits-and-glory.txt (Thomas Jakobsen, a Showdown conversion, 2009)",
        scale="1 figure = 1 man; units of 1-6 figures, 25-28 mm",
        stats=STATS,
        options=OPTIONS,
        checks=CHECKS,
        snapshot=BASE,
        tables=campaign_tables,
        label_text=label_text,
        initial_state=initial_state,
        card=CARD,
        piece="unit",
        post_battle=imported_later("rules.systems.grits_and_glory.campaign", "post_battle"),
        activation=MappingImportedLater("rules.systems.grits_and_glory.deck", "METHODS"),
        simulate=imported_later("rules.systems.grits_and_glory.simulate", "simulate"),
        statuses=("unhurt", "wounded", "out", "ko", "dead", "routed"),
        description="Aced trait dice against TN 4 with raises, Wild Cards and their Wild Die, "
        "damage against Toughness, a 54-card action deck with Jokers and events.",
        words_from="rules.systems.grits_and_glory.words",
        house_from="rules.systems.grits_and_glory.house",
    )
)
