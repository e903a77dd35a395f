""" "Game the 90%": units of 160 foot or 80 mounted, Hits on one die, removed at 15."""

from __future__ import annotations

from rules.lazy import MappingImportedLater, imported_later
from rules.schema import Field, Schema
from rules.system import RuleSystem, register
from rules.systems.game_the_90.checks import CHECKS
from rules.systems.game_the_90.stats import CARD, STATS, initial_state, label_text, settle_state
from rules.systems.game_the_90.tables import BASE, DIE_CHOICES, reference_tables

OPTIONS = Schema(
    (
        Field(
            "die",
            "choice",
            "Die for every roll",
            "d6",
            choices=DIE_CHOICES,
            help="The text has a campaign pick one die for all rolls of a game",
        ),
    )
)

SYSTEM = register(
    RuleSystem(
        key="game_the_90",
        name="Game the 90%",
        source="game-the-90-percent.txt",
        scale="1 unit = 160 foot or 80 mounted/Lights; 1 inch = 4 m",
        stats=STATS,
        options=OPTIONS,
        snapshot=BASE,
        checks=CHECKS,
        tables=reference_tables,
        label_text=label_text,
        initial_state=initial_state,
        settle_state=settle_state,
        card=CARD,
        piece="unit",
        post_battle=imported_later("rules.systems.game_the_90.campaign", "post_battle"),
        activation=MappingImportedLater("rules.systems.game_the_90.activation", "METHODS"),
        simulate=imported_later("rules.systems.game_the_90.simulate", "simulate"),
        # "removed" is what the checks set at 15 Hits; "out" is for result entry by hand.
        statuses=("unhurt", "wounded", "removed", "out", "routed"),
        harm="hits",
        description="Feudal battles A.D. 500-1100 with units of five types; Hits on a D6 or the "
        "average die, units removed at 15 Hits.",
        words_from="rules.systems.game_the_90.words",
        house_from="rules.systems.game_the_90.house",
    )
)
