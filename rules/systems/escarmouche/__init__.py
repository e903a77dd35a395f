"""Escarmouche: pike & shot skirmish with active and passive d6 pools (Anubis Studios).

The text has no campaign rules, so its post-battle procedure is Muster's house rules adapted
from Rencounter, off unless a campaign switches them on.
"""

from rules.checks import Check
from rules.lazy import MappingImportedLater, imported_later
from rules.system import RuleSystem, register
from rules.systems.escarmouche.checks import (
    DEVELOP,
    POOL,
    RESERVE,
    build_marshal,
    build_move,
    build_opposed,
)
from rules.systems.escarmouche.combat import (
    build_artillery,
    build_fight,
    build_pike_fencing,
    build_shoot,
    build_volley,
)
from rules.systems.escarmouche.special_fights import (
    build_horse_vs_foot,
    build_massed_pike,
    build_pike_vs_cavalry,
)
from rules.systems.escarmouche.stats import (
    CARD,
    OPTIONS,
    STATS,
    initial_state,
    label_text,
    settle_state,
)

# Not bound as `tables`: that name is the tables module, which the system's parts import.
from rules.systems.escarmouche.tables import tables as reference_tables


def build_checks() -> dict[str, Check]:
    """Every check by name, its parameters listing the tables as they stand.

    Called once for the rules as written, and by `house.py` under a club's pack, whose weapon
    classes, terrain and rating and skill limits the checks' parameters then list.
    """
    checks = (
        POOL,
        build_opposed(),
        build_move(),
        build_marshal(),
        DEVELOP,
        RESERVE,
        build_shoot(),
        build_volley(),
        build_artillery(),
        build_fight(),
        build_pike_vs_cavalry(),
        build_massed_pike(),
        build_horse_vs_foot(),
        build_pike_fencing(),
    )
    return {check.name: check for check in checks}


ESCARMOUCHE = register(
    RuleSystem(
        key="escarmouche",
        name="Escarmouche",
        source="Escarmouche: rules for pike & shot skirmish wargames (Anubis Studios)",
        scale="1 figure = 1 man, about six figures a side; movement unmeasured",
        stats=STATS,
        options=OPTIONS,
        checks=build_checks(),
        tables=reference_tables,
        label_text=label_text,
        initial_state=initial_state,
        settle_state=settle_state,
        card=CARD,
        post_battle=imported_later("rules.systems.escarmouche.campaign", "post_battle"),
        house_rules=True,
        activation=MappingImportedLater("rules.systems.escarmouche.activation", "METHODS"),
        simulate=imported_later("rules.systems.escarmouche.simulate", "simulate"),
        statuses=("unhurt", "wounded", "out", "dead"),
        harm_counts_down=True,  # a figure's wounds are the wounds it has left
        description="Active dice score (highest, +1 per extra six), passive dice only risk the "
        "initiative; a figure acts until a 1 ends its turn, a second 1 ends the side's.",
        words_from="rules.systems.escarmouche.words",
        house_from="rules.systems.escarmouche.house",
    )
)
