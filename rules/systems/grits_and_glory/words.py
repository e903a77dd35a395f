"""Grits & Glory in its own words: raises, Shaken, wounds, Bennies, the action deck."""

from __future__ import annotations

from rules.systems.grits_and_glory.deck import DECK, JOKERS
from rules.words import StateWord, Words

_RANKS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
_SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
_JOKER_NAMES = {"BJ": "Black Joker", "RJ": "Red Joker"}


def card_name(card: str) -> str:
    """An action card's code as its name: "AS" -> "Ace of Spades", "RJ" -> "Red Joker"."""
    if card in JOKERS:
        return _JOKER_NAMES[card]
    return f"{_RANKS.get(card[:-1], card[:-1])} of {_SUITS[card[-1]]}"


_TRAIT = {"failure": "failure", "success": "success", "raise": "success with a raise"}
_ATTACK = {"miss": "miss", "hit": "hit", "raise": "hit with a raise"}
_FORTUNES = {
    "freak_event": "Freak Event!",
    "twist_of_fate": "Twist of Fate",
    "quick_and_dead": "The Quick and the Dead",
    "rally": "Rally",
    "hand_of_fate": "Hand of Fate",
    "bitter_weather": "Bitter Cold/Heat",
    "teamwork": "Teamwork",
    "out_of_ammo": "Out of Ammo",
}
_FREAK_EVENTS = {
    "storm": "Storm",
    "fire": "Fire!",
    "blood_ties": "Blood Ties",
    "death_of_a_hero": "Death of a Hero",
    "fickle_fate": "Fickle Fate",
    "back_from_the_dead": "Back from the Dead",
    "bad_weather": "Bad Weather",
    "battle_tested": "Battle Tested",
    "fog_of_war": "Fog of War",
    "eerie_shadows": "Haunted House/Eerie Shadows",
    "lost": "Lost",
    "ominous_silence": "Ominous Silence",
    "snakebite": "Snakebite",
    "wildlife": "Wildlife",
    "blowing_sand": "Blowing Sand/Dust/Snow",
    "unexpected_sniper": "Unexpected Sniper",
    "redeployment": "Redeployment",
    "second_wind": "Second Wind",
    "the_turn_ends": "The Turn Ends",
}
_HITS = {"hits_0": "no hits", "hits_1": "1 hit", **{f"hits_{n}": f"{n} hits" for n in range(2, 7)}}
_RELOAD_NOTE = "a natural 1: reload"

WORDS = Words(
    outcomes={**_TRAIT, **_HITS, "shaken": "Shaken"},
    check_outcomes={
        "fighting": _ATTACK,
        "volley_fire": _ATTACK,
        "vigor_test": {"survives": "survives", "killed": "killed"},
        "recover": {
            "still_shaken": "still Shaken",
            "recovers": "recovers from Shaken",
            "acts": "recovers and acts at once",
        },
        "shooting": {
            **_ATTACK,
            "miss_jammed": "miss, and the gun needs reloading",
            "hit_jammed": "hit, and the gun needs reloading",
            "raise_jammed": "hit with a raise, and the gun needs reloading",
        },
        "damage": {
            "no_effect": "no effect",
            "shaken": "Shaken",
            "wounded": "wounded",
            "removed": "removed from play",
        },
        "soak": {
            "soaked_all": "soaks every wound",
            "soaked_some": "soaks some of the wounds",
            "soaked_none": "soaks nothing",
        },
        "fear": {"steady": "steady", "afraid": "afraid"},
        "run": {"runs": "runs", "stumbles": "stumbles and is Shaken"},
        "end_game": {"ends": "the game ends", "continues": "the game goes on"},
        "fortune": _FORTUNES,
        "freak_event": _FREAK_EVENTS,
        "reserves": {"delayed": "Delayed", "wrong_way": "Wrong way", "ready": "arrives"},
        "sentry": {"unawares": "Unawares", "suspicion": "Suspicion", "patrol": "Patrol"},
        "stealth": {"hidden": "stays hidden", "seen": "is seen"},
        "line_of_sight": {"sees": "can see", "blocked": "sight blocked"},
        "obstacle": {
            "balks": "balks",
            "crosses": "crosses",
            "crosses_and_moves_on": "crosses and moves on",
            "shaken": "Shaken",
        },
        "swim": {"swims": "swims", "wades": "wades slowly", "drowns": "a figure drowns"},
        "interrupt": {
            "interrupts": "interrupts",
            "simultaneous": "both act at once",
            "acts_after": "acts after",
        },
        "set_weapons": {
            "set_first": "the set weapon strikes first",
            "simultaneous": "both strike at once",
            "charge_first": "the charge strikes first",
        },
        "intimidate": {
            "resisted": "resisted",
            "upper_hand": "gets the upper hand",
            "shaken": "the foe is Shaken",
        },
        "taunt": {
            "resisted": "resisted",
            "upper_hand": "gets the upper hand",
            "shaken": "the foe is Shaken",
        },
        "notice": {"unseen": "sees nothing", "spotted": "spots the foe"},
        "difficult_ground": {
            "full_pace": "full Pace",
            "slowed": "slowed",
            "hindered": "hindered by the terrain",
        },
        "area_effect": {"on_target": "on target", "deviates": "the blast deviates"},
        "into_melee": {
            "hits_target": "hits the target",
            "hits_other_foe": "hits another foe",
            "hits_friend": "hits a friend",
        },
        "reload": {
            "loaded": "loaded",
            "reloading": "still reloading",
            "cannot_reload": "cannot reload (limited ammunition)",
        },
    },
    verbs={
        "trait": ("makes a trait test", "facing"),
        "group_roll": ("makes a group roll", "facing"),
        "vigor_test": ("tests Vigor", "after facing"),
        "recover": ("tries to recover from Shaken", "facing"),
        "fighting": ("attacks", ""),
        "shooting": ("shoots", "at"),
        "autofire": ("fires a burst", "at"),
        "volley_fire": ("fires a volley", "at"),
        "damage": ("rolls damage", "on"),
        "soak": ("tries to soak wounds", "from"),
        "fear": ("tests Fear", "of"),
        "run": ("runs", "towards"),
        "end_game": ("rolls for the end of the game", "facing"),
        "fortune": ("rolls a fortune", "facing"),
        "freak_event": ("rolls a freak event", "facing"),
        "reserves": ("rolls for reserves", "facing"),
        "sentry": ("stands sentry", "facing"),
        "stealth": ("deploys hidden", "from"),
        "line_of_sight": ("looks", "for"),
        "obstacle": ("crosses an obstacle", "near"),
        "swim": ("swims", "near"),
        "interrupt": ("interrupts", ""),
        "set_weapons": ("sets weapons", "against"),
        "intimidate": ("intimidates", ""),
        "taunt": ("taunts", ""),
        "notice": ("looks", "for"),
        "difficult_ground": ("crosses difficult ground", "near"),
        "area_effect": ("makes an area attack", "on"),
        "into_melee": ("fires into the melee", "around"),
        "reload": ("reloads", "facing"),
        "benny_reroll": ("makes a trait test with Bennies", "facing"),
    },
    states={
        "figures": StateWord("figure", loss=("{n} figure removed", "{n} figures removed")),
        "shaken": StateWord(
            "Shaken figure",
            bad=True,
            loss=("{n} Shaken figure recovers", "{n} Shaken figures recover"),
        ),
        "wounds": StateWord("wound", bad=True, loss=("{n} wound soaked", "{n} wounds soaked")),
        "reloading": StateWord("round of reloading left", plural="rounds of reloading left"),
        "on_hold": StateWord("on Hold", "flag", off="off Hold"),
        "card": StateWord("action card", "text"),
        "upper_hand": StateWord("has the upper hand", "flag"),
        "lost_action": StateWord("loses the action", "flag", bad=True),
        "spirit_test": StateWord("Spirit test due", "flag", off="Spirit test taken", bad=True),
        "loaded": StateWord("loaded", "flag", on="loaded", off="needs reloading", chip_off=True),
    },
    values={
        "ko": "knocked out",
        "dead": "killed",
        "knocked out: survives its wounds": "knocked out, but survives",
        "out": "removed from play",
        _RELOAD_NOTE: "",
        f"{_RELOAD_NOTE} before firing": "",
        **{card: card_name(card) for card in DECK},
    },
    procedures={"vigor_test": "post-game Vigor test"},
    titles={"fortune": "Fortune", "freak_event": "Freak event"},
    details={
        "area_effect.inches": ' {}"',
        "area_effect.direction": " towards {}",
        "run.extra_inches": ', {}" further',
        "sentry.moves_inches": ' {}"',
    },
)
