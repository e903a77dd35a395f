"""Escarmouche: pike & shot skirmish with active and passive d6 pools (Anubis Studios).

The text has no campaign rules, so its post-battle procedure is Muster's house rules adapted
from Rencounter, off unless a campaign switches them on.
"""

from rules.system import RuleSystem, register
from rules.systems.escarmouche.activation import INITIATIVE
from rules.systems.escarmouche.campaign import post_battle
from rules.systems.escarmouche.checks import DEVELOP, MARSHAL, MOVE, OPPOSED, POOL, RESERVE
from rules.systems.escarmouche.combat import ARTILLERY, FIGHT, PIKE_FENCING, SHOOT, VOLLEY
from rules.systems.escarmouche.simulate import simulate
from rules.systems.escarmouche.special_fights import HORSE_VS_FOOT, MASSED_PIKE, PIKE_VS_CAVALRY
from rules.systems.escarmouche.stats import CARD, OPTIONS, STATS, initial_state, label_text
from rules.systems.escarmouche.tables import tables
from rules.systems.escarmouche.words import WORDS

CHECKS = (
    POOL,
    OPPOSED,
    MOVE,
    MARSHAL,
    DEVELOP,
    RESERVE,
    SHOOT,
    VOLLEY,
    ARTILLERY,
    FIGHT,
    PIKE_VS_CAVALRY,
    MASSED_PIKE,
    HORSE_VS_FOOT,
    PIKE_FENCING,
)

ESCARMOUCHE = register(
    RuleSystem(
        key="escarmouche",
        name="Escarmouche",
        source="Escarmouche: rules for pike & shot skirmish wargames (Anubis Studios)",
        scale="1 figure = 1 man, about six figures a side; movement unmeasured",
        stats=STATS,
        options=OPTIONS,
        checks={check.name: check for check in CHECKS},
        tables=tables,
        label_text=label_text,
        initial_state=initial_state,
        card=CARD,
        post_battle=post_battle,
        house_rules=True,
        activation={INITIATIVE.name: INITIATIVE},
        simulate=simulate,
        statuses=("unhurt", "wounded", "out", "dead"),
        description="Active dice score (highest, +1 per extra six), passive dice only risk the "
        "initiative; a figure acts until a 1 ends its turn, a second 1 ends the side's.",
        words=WORDS,
    )
)
