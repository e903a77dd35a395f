"""Escarmouche in its own words: the initiative, Shaken markers, Cowered, Hit & Shaken."""

from __future__ import annotations

from rules.words import StateWord, Words

_INITIATIVE = {
    "keeps_initiative": "keeps the initiative",
    "figure_ends": "a 1: the figure's go ends",
    "side_ends": "two 1s: the side's turn ends",
    "not_at_stake": "the initiative is not at stake",
}
_SHOOTING = {
    "no_effect": "no effect",
    "shaken": "Shaken",
    "cowered": "Cowered: goes prone",
    "hit": "Hit & Shaken",
    "multiple_hits": "Multiple Hits & Shaken",
}
#: A fighting effect on its loser, worded after "the defender" or "the horseman".
_FIGHTING = {
    "pushed_back": "is pushed back",
    "shaken": "is Shaken and pushed back",
    "disarmed": "is Disarmed and pushed back",
    "hit": "is hit, Shaken and pushed back",
    "multiple_hits": "takes multiple hits, is Shaken and pushed back",
}
_FIGHTERS = {
    "attacker": "the attacker",
    "defender": "the defender",
    "horse": "the horseman",
    "foot": "the foot soldier",
}


def _fight(*losers: str) -> dict[str, str]:
    """The outcome labels of a fight whose loser may be any of `losers`."""
    labels = {"stand_off": "stand-off"}
    for loser in losers:
        labels.update({f"{loser}_{row}": f"{_FIGHTERS[loser]} {t}" for row, t in _FIGHTING.items()})
        labels[f"{loser}_win_ignored"] = f"{_FIGHTERS[loser]} wins, but the first strike stands"
    return labels


WORDS = Words(
    outcomes={**_INITIATIVE, **_SHOOTING},
    check_outcomes={
        "opposed": {
            "roller_wins": "the roller wins",
            "defender_wins": "the defender wins",
            "tie": "a tie",
        },
        "marshal": {
            "all_move": "all move and keep the initiative",
            "move_figure_ends": "they move, then a 1 ends the figure's go",
            "move_side_ends": "they move, then two 1s end the side's turn",
            "no_move": "two 1s: nobody moves",
        },
        "reserve": {"reserved": "an active die held in reserve"},
        "fight": _fight("attacker", "defender"),
        "pike_fencing": _fight("attacker", "defender"),
        "pike_vs_cavalry": _fight("horse"),
        "massed_pike": _fight("horse"),
        "horse_vs_foot": _fight("foot"),
    },
    verbs={
        "pool": ("rolls the dice pool", "facing"),
        "opposed": ("makes an opposed roll", "against"),
        "move": ("moves", "towards"),
        "marshal": ("marshals his men", "towards"),
        "develop": ("develops", "near"),
        "reserve": ("holds a die in reserve", "facing"),
        "shoot": ("shoots", "at"),
        "volley": ("directs a volley", "at"),
        "artillery": ("fires a cannon", "at"),
        "fight": ("fights", ""),
        "pike_fencing": ("fences with pikes", "against"),
        "pike_vs_cavalry": ("fights", ""),
        "massed_pike": ("fights", ""),
        "horse_vs_foot": ("rides", "at"),
    },
    states={
        # The wound score counts down: each hit takes one off.
        "wounds": StateWord("wound left", plural="wounds left", loss=("{n} hit", "{n} hits")),
        "shaken": StateWord(
            "Shaken marker",
            bad=True,
            loss=("{n} Shaken marker removed", "{n} Shaken markers removed"),
        ),
        "disarmed": StateWord("Disarmed", "flag", off="rearmed", bad=True),
        "prone": StateWord("prone", "flag", off="stands up", bad=True),
        "cover": StateWord("in cover", "flag", off="leaves cover"),
        "kept_away": StateWord("kept away", "flag", off="no longer kept away", bad=True),
        # Every action clears the reserve die, held or not: nothing worth saying.
        "reserved": StateWord("holds a reserve die", "flag", off=""),
    },
    values={
        "out": "out of action",
        # Notes the effects themselves already say.
        "take_cover": "",
        "stand_up": "",
        "remove_shaken": "",
        "rearm": "",
        "one active die held back": "",
    },
    procedures={"improvement": "improvement roll", "aftermath": "wound aftermath"},
    details={"pool_after": " (pool {})"},
)
