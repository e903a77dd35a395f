"""The d12 skirmish game at the table: card abbreviations and weapon profiles, and the
quick-reference sheet's sections, built from the system's tables (see rencounter/reference.py
for the shape of a section)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.systems.d12_skirmish import tables as t

SOURCE = (
    "an untitled d12 black-powder skirmish game (initiative, move, shoot, hand to hand, "
    "morale); its author is not named in the text"
)

ABBREVIATIONS = {
    "troop": "Troop",
    "expertise": "Expert",
    "officer": "Off",
    "mount": "Mount",
    "wounds": "Wnd",
    "loading": "Load",
    "ability": "Ability",
}
FIREARM_HEAD = ('Close "', 'Med. "', 'Extr. "', "Reload")
MELEE_HEAD = ("Hand to hand",)
RESULT_WORDS = {
    "explodes": "Weapon explodes: roll on the wound table",
    "out_of_ammo": "Out of ammunition",
    "jammed": "Jammed: reload next turn",
    "bad_powder": "Bad powder: fire again next turn",
    "dead": "Dead",
    "two_wounds": "Two wounds",
    "one_wound": "One wound",
    "pinned": "Pinned",
    "panic": "Panic",
    "retreat": "Retreat",
    "continue": "Carry on",
    "elite": "Elite",
    "veteran": "Veteran",
    "regular": "Regular",
    "raw": "Raw",
    "combat": "Combat",
    "shooting": "Shooting",
}


def _band(value: int | None) -> str:
    return "–" if value is None else str(value)


def weapon_profile(
    key: str, tables: Mapping[str, Any], stats: Mapping[str, Any] | None = None
) -> tuple[tuple[str, str], ...] | None:
    """Return a firearm's range bands (inches) and reload, or a melee weapon's bonus."""
    loading = (stats or {}).get("loading") or "muzzle"
    if key in t.FIREARMS:
        close, medium, extreme = t.FIREARMS[key]
        reload = "every turn" if loading in t.FIRES_EVERY_TURN else "a turn"
        values = (_band(close), _band(medium), _band(extreme), reload)
        return tuple(zip(FIREARM_HEAD, values, strict=True))
    if key in t.MELEE_WEAPONS:
        return (("Hand to hand", f"+{t.MELEE_WEAPONS[key]}"),)
    return None


def weapon_legend() -> str:
    return (
        "Ranges in inches. To hit: d12 + troop + modifiers, 6 or more; medium range "
        "\u22121, extreme \u22122."
    )


def card_notes(stats: Mapping[str, Any], tables: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the ability's effect and the misfire note for a firearm."""
    notes = []
    ability = stats.get("ability") or "none"
    for _, key, name, effect in t.ABILITIES:
        if key == ability:
            notes.append(f"{name}: {effect}.")
    if any(w in t.FIREARMS for w in stats.get("weapons") or ()):
        notes.append(
            "Natural 1 to hit: misfire (d12: 1 explodes, 2\u20134 out of ammo, "
            "5\u20138 jammed, 9\u201312 bad powder)."
        )
    return tuple(notes)


def track(stats: Mapping[str, Any]) -> tuple[str, int]:
    return "Wounds", int(stats.get("wounds") or 1)


def _bands(rows: Any) -> list[list[str]]:
    out = []
    for row in rows:
        low, high = row["low"], row["high"]
        if low is None:
            band = f"{high} or less"
        elif high is None:
            band = f"{low} or more"
        else:
            band = str(low) if low == high else f"{low}\u2013{high}"
        out.append([band, RESULT_WORDS.get(row["result"], row["result"])])
    return out


def _result_on(rows: Any, face: int) -> str:
    for row in rows:
        if row["low"] <= face <= row["high"]:
            return str(RESULT_WORDS.get(row["result"], row["result"]))
    return "–"


def _wound_rows(wounding: Mapping[str, Any]) -> list[list[str]]:
    """Foot and cavalry side by side, faces grouped where both tables agree."""
    rows: list[list[str]] = []
    start, last = 12, None
    for face in range(12, 0, -1):
        pair = (_result_on(wounding["foot"], face), _result_on(wounding["cavalry"], face))
        if last is not None and pair != last:
            rows.append([_face_band(face + 1, start), *last])
            start = face
        last = pair
    rows.append([_face_band(1, start), *last])  # type: ignore[misc]
    return rows


def _face_band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\u2013{high}"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def _modifiers(mods: Mapping[str, int]) -> list[list[str]]:
    return [[k[:1].upper() + k[1:], _signed(v)] for k, v in mods.items()]


def sheet(tables: Mapping[str, Any], options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the quick-reference sheet's sections, in reading order."""
    movement = tables["movement"]
    wounds = tables["wounds"]
    to_hit = tables["to_hit"]
    morale = tables["morale"]
    h2h = tables["hand_to_hand"]
    game = "unit" if options.get("game", "unit") == "unit" else "individual"
    sections: list[dict[str, Any]] = [
        {
            "title": "Turn sequence",
            "items": [
                {
                    "steps": [
                        "Initiative: each side rolls a d12 (ties roll again); the higher "
                        "chooses to move first or second.",
                        "Move, shoot, hand to hand: the sides alternate one unit or figure "
                        "at a time.",
                        "Morale: every unit or figure with a reason tests.",
                    ]
                },
                {
                    "text": (
                        f"Unit game: each figure has {wounds['figure']} wound, officers "
                        f'{wounds["officer"]}; figures stay within 8" of the leader.'
                        if game == "unit"
                        else "Individual game: each figure has 3 wounds; no coherency."
                    )
                },
            ],
        },
        {
            "title": "Movement (inches)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Move", "Foot", "Cavalry"],
                        "rows": [
                            [
                                "Normal",
                                str(movement["inches"]["foot"]),
                                str(movement["inches"]["cavalry"]),
                            ],
                            ["Crawl", movement["crawl"], movement["crawl"]],
                            [
                                "Run or charge (at most "
                                f"{movement['run_turns_in_a_row']} turns in a row)",
                                movement["run_or_charge"],
                                movement["run_or_charge"],
                            ],
                        ],
                    }
                },
                {
                    "table": {
                        "caption": "Terrain",
                        "header": ["Terrain", "Move"],
                        "rows": [[k, v] for k, v in movement["terrain"].items()],
                    }
                },
            ],
        },
        {
            "title": "Shooting (d12)",
            "items": [
                {
                    "text": f"Roll a d12 + troop modifier + modifiers: {to_hit['d12 needs']} "
                    "or more hits. A natural 1 misfires."
                },
                {
                    "table": {
                        "caption": "Weapons (range bands in inches)",
                        "header": ["Weapon", *FIREARM_HEAD[:3]],
                        "rows": [
                            [name, *(_band(v) for v in bands.values())]
                            for name, bands in tables["weapons"].items()
                        ],
                    }
                },
                {
                    "text": "Reload: a muzzle-loader reloads for a turn; breechloaders and "
                    "repeaters fire every turn."
                },
                {
                    "table": {
                        "caption": "To-hit modifiers",
                        "header": ["Situation", "Modifier"],
                        "rows": _modifiers(to_hit["modifiers"]),
                    }
                },
                {
                    "table": {
                        "caption": "Misfire (d12 after a natural 1)",
                        "header": ["d12", "Result"],
                        "rows": _bands(tables["misfire"]),
                    }
                },
            ],
        },
        {
            "title": "Wounding (d12 per hit)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["d12", "Foot", "Cavalry"],
                        "rows": _wound_rows(tables["wounding"]),
                    }
                },
                {
                    "text": f"Close range +{tables['wounding']['close range']} to the roll; a "
                    "natural 12 always kills. A cavalryman wounded on 5\u201311 rolls another "
                    "d12: on 10 or more he is thrown (after 10\u201311: dead; after 5\u20139: "
                    "one more wound)."
                },
            ],
        },
        {
            "title": "Hand to hand",
            "items": [
                {
                    "text": "Both roll a d12 + modifiers; the higher wins by the difference. "
                    "A tie has no effect."
                },
                {
                    "table": {
                        "caption": "",
                        "header": ["Won by", "The loser takes"],
                        "rows": [
                            [r["difference"], r["effect"]] for r in h2h["effects_by_difference"]
                        ],
                    }
                },
                {
                    "table": {
                        "caption": "Hand-to-hand modifiers",
                        "header": ["Situation", "Modifier"],
                        "rows": _modifiers(h2h["modifiers"]),
                    }
                },
            ],
        },
        {
            "title": "Morale (d12)",
            "items": [
                {"text": "Test when any of these happen:"},
                {"steps": list(morale["triggers"])},
                {
                    "table": {
                        "caption": "",
                        "header": ["d12 + modifiers", "Result"],
                        "rows": _bands(morale["table"]),
                    }
                },
                {
                    "text": "In cover a 3\u20134 rolls again: 6 or more carries on, else "
                    "pinned. Two failed tests in a row remove the figure."
                },
                {
                    "table": {
                        "caption": "Morale modifiers",
                        "header": ["Situation", "Modifier"],
                        "rows": _modifiers(morale["modifiers"]),
                    }
                },
            ],
        },
        {
            "title": "Abilities (d12 when a figure is made)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["d12", "Ability", "Effect"],
                        "rows": [
                            [str(a["roll"]), a["ability"], a["effect"]] for a in tables["abilities"]
                        ],
                    }
                }
            ],
        },
    ]
    campaign = tables.get("campaign", {})
    if campaign.get("house_rules"):
        care = "; prompt care rerolls each 1 or 2 once" if campaign.get("care") == "prompt" else ""
        hazard = int(campaign.get("hazard") or 0)
        sections.append(
            {
                "title": "Campaign: improvement and wounds",
                "house": True,
                "items": [
                    {
                        "table": {
                            "caption": "",
                            "header": ["After a battle", "Roll"],
                            "rows": [
                                [
                                    "Improvement",
                                    campaign["improvement"][:1].upper()
                                    + campaign["improvement"][1:],
                                ],
                                [
                                    "Wound aftermath",
                                    "A d6 per wound: 1 sepsis (roll again as two), 2 permanent, "
                                    "3\u20136 healed"
                                    + care
                                    + (f"; hazardous: \u2212{hazard} a die" if hazard else ""),
                                ],
                            ],
                        }
                    }
                ],
            }
        )
    return sections
