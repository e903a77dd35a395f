"""The d12 black-powder skirmish in its own words: misfires, head shots, pinned, panic."""

from __future__ import annotations

from rules.words import StateWord, Words

WORDS = Words(
    outcomes={"hit": "hit", "miss": "miss", "misfire": "misfire"},
    check_outcomes={
        "misfire": {
            "explodes": "the weapon explodes",
            "out_of_ammo": "out of ammo",
            "jammed": "jammed: reload next turn",
            "bad_powder": "bad powder: fire again next turn",
        },
        "wound": {
            "dead": "head shot, dead",
            "two_wounds": "chest hit, 2 wounds",
            "one_wound": "minor hit, 1 wound",
            "pinned": "pinned, no action next turn",
        },
        "hand_to_hand": {
            "inflicts_1": "wins: 1 wound",
            "inflicts_2": "wins: 2 wounds",
            "kills": "wins: the foe is killed",
            "blocks": "blocks the blow",
            "draw": "a draw",
            "suffers_1": "loses: takes 1 wound",
            "suffers_2": "loses: takes 2 wounds",
            "killed": "loses: killed",
        },
        "morale": {
            "continue": "continues as normal",
            "pinned": "pinned in cover",
            "retreat": "retreats to cover",
            "panic": "panics",
            "surrender": "surrenders",
            "removed": "a second failed test: removed",
        },
        "officer_loss": {
            "officer_killed": "the officer or standard is lost",
            "officer_safe": "the officer and standard are safe",
        },
        "troop_type": {"elite": "Elite", "veteran": "Veteran", "regular": "Regular", "raw": "Raw"},
        "ability": {
            "expert_skirmisher": "Expert skirmisher",
            "combat_expert": "Combat expert",
            "dead_eye": "Dead eye",
            "tough": "Tough",
            "quick_loader": "Quick loader",
            "loyal": "Loyal",
            "runner": "Runner",
            "fast_mover": "Fast mover",
            "yella": "Yella",
            "shot_in_the_leg": "Shot in the leg",
            "twitchy": "Twitchy shooting arm",
            "campaign_wound": "Campaign wound",
        },
    },
    verbs={
        "shoot": ("shoots", "at"),
        "fire": ("fires", "at"),
        "reload": ("reloads", "facing"),
        "misfire": ("rolls for the misfire", "facing"),
        "wound": ("rolls to wound", ""),
        "hand_to_hand": ("fights hand to hand", "with"),
        "morale": ("tests morale", "facing"),
        "officer_loss": ("rolls for the officer and standard", "facing"),
        "troop_type": ("rolls troop type", "facing"),
        "ability": ("rolls an ability", "facing"),
    },
    states={
        "failed_morale": StateWord("failed morale test", bad=True, off=""),
        "mounted": StateWord("mounted", "flag", off="dismounted"),
        "weapon": StateWord("weapon", "text", bad=True, neutral=("ready",)),
        "morale": StateWord("morale", "text", bad=True),
        "officer_killed": StateWord("officer or standard lost", "flag", bad=True),
        "loaded": StateWord("loaded", "flag", on="loaded", off="unloaded", chip_off=True),
    },
    values={
        "captured": "surrendered",
        "raw": "Raw",
        "regular": "Regular",
        "veteran": "Veteran",
        "elite": "Elite",
        "dead": "killed",
        "routed": "removed",
        "exploded": "weapon exploded",
        "out_of_ammo": "out of ammo",
        "panic": "panicking",
        "retreat": "retreating to cover",
        "fired": "",  # an unloaded gun after a shot needs no note
    },
    procedures={"improvement": "troop type improvement", "aftermath": "wound aftermath"},
    stats={"troop": "troop type"},
    details={"troop_type.expertise": ", expertise: {}"},
)
