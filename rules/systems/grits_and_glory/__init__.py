"""Grits & Glory (Thomas Jakobsen): a Showdown conversion for pulp skirmish wargaming."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.lazy import MappingImportedLater, imported_later
from rules.schema import Field, Schema
from rules.system import CardLayout, RuleSystem, register
from rules.systems.grits_and_glory import checks as c
from rules.systems.grits_and_glory import opposed as o
from rules.systems.grits_and_glory import procedures as pr
from rules.systems.grits_and_glory import table_rolls as r
from rules.systems.grits_and_glory.stats import STATS, initial_state, label_text
from rules.systems.grits_and_glory.tables import (
    SCENARIO_BY_ROLL,
    SKILLS,
    TRAITS,
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

CHECKS = {
    check.name: check
    for check in (
        c.TRAIT,
        c.GROUP_ROLL,
        c.VIGOR_TEST,
        c.RECOVER,
        c.FIGHTING,
        c.SHOOTING,
        c.AUTOFIRE,
        c.VOLLEY_FIRE,
        c.DAMAGE_CHECK,
        c.SOAK_CHECK,
        c.FEAR,
        r.RUN,
        r.END_GAME,
        r.FORTUNE,
        r.FREAK_EVENT,
        r.RESERVES,
        r.SENTRY,
        r.STEALTH,
        r.LINE_OF_SIGHT,
        r.OBSTACLE,
        r.SWIM,
        o.INTERRUPT,
        o.SET_WEAPONS,
        o.INTIMIDATE,
        o.TAUNT,
        o.NOTICE,
        pr.DIFFICULT_GROUND,
        pr.AREA_EFFECT,
        pr.INTO_MELEE,
        pr.RELOAD,
        pr.BENNY_REROLL,
    )
}

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


def campaign_tables(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return the reference tables, with the campaign's scenario and scoring choices.

    Not named `tables`: that would hide the `tables` submodule from the modules imported
    later (the deck, the campaign, the auto-resolver), which read it as the package's
    attribute.
    """
    data = reference_tables()
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
