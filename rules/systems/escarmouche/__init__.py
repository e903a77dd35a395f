"""Escarmouche: pike & shot skirmish with active and passive d6 pools (Anubis Studios).

The text has no campaign rules, so its post-battle procedure is Muster's house rules adapted
from Rencounter, off unless a campaign switches them on.
"""

from collections.abc import Mapping
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
from rules.system import RuleSystem, register
from rules.systems.escarmouche import tables as t
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

# --- where each parameter comes from (the table reads these, never a parameter's name) -----


def _weaponless(stats: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """No melee weapon on the card, or disarmed in this battle."""
    return stats.get("melee") == "none" or bool(state.get("disarmed"))


def _mounted(stats: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    return bool(stats.get("mounted"))


def _on_foot(stats: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    return not stats.get("mounted")


def _skill_by_mount(mounted: str, on_foot: str) -> Any:
    """A fight whose skill depends on what the figure is: a horseman's or a foot soldier's."""

    def skill(stats: Mapping[str, Any], state: Mapping[str, Any]) -> Any:
        return stats.get(mounted if stats.get("mounted") else on_foot)

    return skill


#: Every action: the dice built up this turn and the side's 1s are counted at the table.
_TURN = {"active": JUDGED, "ones_before": JUDGED}
_SHAKEN = FromState("shaken")
_RESERVED = FromState("reserved")
_SHOT_AT = {
    "shaken": _SHAKEN,
    "cover": FromState("cover", of="target"),  # the target has taken cover
    "rating": FromActor("rating"),
    "target_rating": FromTarget("rating"),
}


def _fight(skill: Source, defender_skill: Source) -> dict[str, Source]:
    return {
        **_TURN,
        "rating": FromActor("rating"),
        "skill": skill,
        "defender_rating": FromTarget("rating"),
        "defender_skill": defender_skill,
        "weaponless": Derived("actor", "weaponless", _weaponless),
        "shaken": _SHAKEN,
        "reserved": _RESERVED,
        **dict.fromkeys(("attackers", "defenders", "uphill", "cover"), JUDGED),
    }


_PIKE_OR_HORSE = Derived("actor", "pike trailer or rider", _skill_by_mount("rider", "pike_trailer"))
_DEFENDING_PIKE_OR_HORSE = Derived(
    "target", "pike trailer or rider", _skill_by_mount("rider", "pike_trailer")
)

SOURCES: dict[str, dict[str, Source]] = {
    "pool": {"active": JUDGED, "passive": JUDGED, "ones_before": JUDGED},
    "opposed": {
        "active": JUDGED,
        "passive": JUDGED,
        "rating": FromActor("rating"),
        "defender_dice": JUDGED,  # its rating, or a better skill, plus any bonus
        "defender_rating": FromTarget("rating"),
        "ones_before": JUDGED,
    },
    "move": {**_TURN, "terrain": JUDGED, "shaken": _SHAKEN},
    "marshal": {
        **_TURN,
        "terrain": JUDGED,
        "followers": JUDGED,
        "leader": FromActor("leader"),
        "shaken": _SHAKEN,
    },
    "develop": {**_TURN, "purpose": JUDGED, "shaken": _SHAKEN, "reserved": _RESERVED},
    "reserve": {"active": JUDGED},
    "shoot": {
        **_TURN,
        **_SHOT_AT,
        "weapon": FromEquipment("weapons"),
        "skill": FromActor("shooter"),
        "reserved": _RESERVED,
    },
    "volley": {
        **_TURN,
        **_SHOT_AT,
        "weapon": FromEquipment("weapons"),
        "leader": FromActor("leader"),
        "shooters": JUDGED,
    },
    "artillery": {
        **_TURN,
        **_SHOT_AT,
        "artillerist": FromActor("artillerist"),
        "reserved": _RESERVED,
    },
    "fight": _fight(FromActor("fighter"), FromTarget("fighter")),
    "pike_vs_cavalry": {
        **_fight(_PIKE_OR_HORSE, _DEFENDING_PIKE_OR_HORSE),
        "pike_attacks": Derived("actor", "on foot (the pike)", _on_foot),
    },
    "massed_pike": {
        **_fight(_PIKE_OR_HORSE, _DEFENDING_PIKE_OR_HORSE),
        "pike_attacks": Derived("actor", "on foot (the pike)", _on_foot),
        "supporting": JUDGED,
    },
    "horse_vs_foot": {
        **_fight(
            Derived("actor", "rider or fighter", _skill_by_mount("rider", "fighter")),
            Derived("target", "rider or fighter", _skill_by_mount("rider", "fighter")),
        ),
        "horse_attacks": Derived("actor", "mounted (the horse)", _mounted),
    },
    "pike_fencing": _fight(FromActor("pike_trailer"), FromTarget("pike_trailer")),
}

#: Checks that concern the acting figure alone: no target to choose.
ALONE = frozenset({"pool", "move", "marshal", "develop", "reserve"})


def build_checks(tables: t.EscarmoucheTables) -> dict[str, Check]:
    """Every check by name, its parameters listing `tables`.

    Called once for the rules as written, and by `house.py` with a club's snapshot, whose
    weapon classes, terrain and rating and skill limits the checks' parameters then list.
    """
    checks = (
        POOL,
        build_opposed(tables),
        build_move(tables),
        build_marshal(tables),
        DEVELOP,
        RESERVE,
        build_shoot(tables),
        build_volley(tables),
        build_artillery(tables),
        build_fight(tables),
        build_pike_vs_cavalry(tables),
        build_massed_pike(tables),
        build_horse_vs_foot(tables),
        build_pike_fencing(tables),
    )
    return declare({check.name: check for check in checks}, SOURCES, ALONE)


ESCARMOUCHE = register(
    RuleSystem(
        key="escarmouche",
        name="Escarmouche",
        source="Escarmouche: rules for pike & shot skirmish wargames (Anubis Studios)",
        scale="1 figure = 1 man, about six figures a side; movement unmeasured",
        stats=STATS,
        options=OPTIONS,
        snapshot=t.BASE,
        checks=build_checks(t.BASE),
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
