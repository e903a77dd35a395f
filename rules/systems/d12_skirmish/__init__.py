"""The d12 skirmish game: one d12 for everything, troop types, abilities, house campaign rules."""

from __future__ import annotations

from typing import Any

from rules.aftermath import CARE_CHOICES, check_care
from rules.lazy import MappingImportedLater, imported_later
from rules.schema import Field, Schema
from rules.system import RuleSystem, register
from rules.systems.d12_skirmish.chargen import ABILITY, TROOP_TYPE
from rules.systems.d12_skirmish.checks import CHECKS
from rules.systems.d12_skirmish.stats import CARD, STATS, initial_state, label_text
from rules.systems.d12_skirmish.tables import BASE, reference_tables


def _clean_options(values: dict[str, Any]) -> dict[str, Any]:
    check_care(values["aftermath_care"], values["aftermath_hazard"])
    return values


OPTIONS = Schema(
    (
        Field(
            "game",
            "choice",
            "Game",
            "unit",
            choices=(
                ("unit", "Unit game (1 wound, officers 2)"),
                ("individual", "Individual game (3 wounds)"),
            ),
        ),
        Field(
            "house_campaign",
            "bool",
            "House campaign rules (Muster)",
            False,
            help="Muster's house rules adapted from Rencounter: troop type improvement and "
            "wound aftermath; not part of the d12 text",
        ),
        Field(
            "aftermath_care", "choice", "Aftermath care (house rule)", "none", choices=CARE_CHOICES
        ),
        Field("aftermath_hazard", "int", "Hazardous aftermath (house rule)", 0, min=0, max=2),
    ),
    clean=_clean_options,
)

SYSTEM = register(
    RuleSystem(
        key="d12_skirmish",
        name="d12 skirmish",
        source="d12-skirmish.txt",
        scale="1 figure = 1 man; unit or individual games",
        stats=STATS,
        options=OPTIONS,
        snapshot=BASE,
        checks={**CHECKS, "troop_type": TROOP_TYPE, "ability": ABILITY},
        tables=reference_tables,
        label_text=label_text,
        initial_state=initial_state,
        card=CARD,
        piece="figure",
        post_battle=imported_later("rules.systems.d12_skirmish.campaign", "post_battle"),
        house_rules=True,
        activation=MappingImportedLater("rules.systems.d12_skirmish.activation", "METHODS"),
        simulate=imported_later("rules.systems.d12_skirmish.simulate", "simulate"),
        statuses=("unhurt", "wounded", "dead", "routed", "captured"),
        description="Black-powder skirmish on a d12: hit on 6+, wound tables for foot and "
        "cavalry, morale that removes after two failures in a row.",
        words_from="rules.systems.d12_skirmish.words",
        house_from="rules.systems.d12_skirmish.house",
    )
)
