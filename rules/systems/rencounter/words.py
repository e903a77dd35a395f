"""Rencounter in its own words: wound points, struck dead, falls back, riposte."""

from __future__ import annotations

from rules.words import StateWord, Words

_DAMAGE = {
    "no_effect": "hit, no effect",
    "minor": "minor wound",
    "serious": "serious wound",
    "crippling": "crippling wound",
    "dead": "struck dead",
}
_ACTION = {"falls_back": "falls back", "collapses": "collapses, overcome by his wounds"}
_PERMANENT = {
    "permanent_0": "no permanent wound",
    "permanent_1": "1 permanent wound point",
    **{f"permanent_{n}": f"{n} permanent wound points" for n in range(2, 6)},
    "dies": "dies of his wounds",
}

WORDS = Words(
    outcomes={
        **_DAMAGE,
        **_ACTION,
        **_PERMANENT,
        "knocked_down": "knocked down",
        "unchanged": "no improvement",
    },
    check_outcomes={
        "melee": {"no_hit": "parried", "hit": "hit", "riposte": "riposte: the parry strikes"},
        "duck_back": {"stays": "stays up", "ducks_back": "ducks back"},
        "horsemanship": {
            "keeps_control": "keeps control",
            "balks": "the horse balks",
            "falls": "thrown from the horse",
        },
        "hero": {
            "ordinary": "no heroics",
            "inspired": "inspired",
            "falters": "falters",
            "steps_up": "his hero roll steps up",
            "steps_back": "his hero roll steps back",
        },
        "grenade_fuse": {"explodes": "goes off", "dud": "a dud"},
        "weapon_stuck": {
            "freed": "weapon freed",
            "stuck": "weapon stuck",
            "broken": "weapon broken",
        },
        "direct_order": {"acts": "acts on the order", "hesitates": "still hesitates"},
        "misfire": {
            "explodes": "the gun explodes",
            "premature_two_crew": "fires early, unaimed, hurting two crew",
            "premature_one_crew": "fires early, unaimed, hurting one crew",
            "premature": "fires early, unaimed",
            "crew_hurt": "a crewman is burned or struck by the recoil",
            "loading_mistake": "loading mistake: no fire until cleared",
        },
    },
    verbs={
        "action": ("makes an action roll", "facing"),
        "fire": ("fires", "at"),
        "reload": ("reloads", "facing"),
        "melee": ("attacks", ""),
        "damage": ("rolls damage", "on"),
        "improvement": ("rolls to improve", "after facing"),
        "aftermath": ("rolls the wound aftermath", "after facing"),
        "morale": ("checks morale", "facing"),
        "duck_back": ("may duck back", "from"),
        "horsemanship": ("rolls horsemanship", "near"),
        "hero": ("rolls for heroics", "facing"),
        "grenade": ("throws a grenade", "at"),
        "grenade_fuse": ("times a grenade fuse", "near"),
        "artillery": ("fires canister", "at"),
        "weapon_stuck": ("pulls at a stuck weapon", "in"),
        "fall": ("rolls fall damage", "for"),
        "direct_order": ("gives a direct order", "to"),
        "misfire": ("rolls for a misfire", "near"),
    },
    states={
        "wounds": StateWord("wound point", bad=True),
        "reload_progress": StateWord("reloading", "level", hidden=True),
        "ducked": StateWord("ducked back", "flag", off="back up"),
        "inspired": StateWord("inspired", "flag", off="no longer inspired"),
        "broken_weapon": StateWord("weapon broken", "flag", bad=True),
        "broken_shield": StateWord("shield broken", "flag", bad=True),
        "weapon_stuck": StateWord("weapon stuck", "flag", off="weapon free", bad=True),
    },
    # "wounded" goes without saying next to the wound points themselves.
    values={"falling_back": "falling back", "out": "out of action", "wounded": ""},
    procedures={
        "aftermath": "wound aftermath",
        "improvement": "improvement roll",
        "hero": "heroes rule",
    },
    stats={"hero_threshold": "hero roll", "permanent_wounds": "permanent wounds"},
    details={"location": " in the {}"},
    wound="wound point",
)
