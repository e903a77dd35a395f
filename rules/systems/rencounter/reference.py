"""Rencounter at the table: the card's abbreviations and weapon profiles, and the
quick-reference sheet's sections, all built from the system's own tables (`tables(options)`).

Sections are plain data for any printer: {"title", "house", "items"}, each item one of
{"steps": [...]}, {"text": "..."} or {"table": {"caption", "header", "rows"}}. A section that
prints a table the club's house-rules pack changed says so ("house": True, from `changed`);
weapon profiles and every table come from `tables`, the system's own (`RuleSystem.tables`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.systems.rencounter import tables as t

# Wound stickers for the bases: minor, serious and crippling wounds (1, 2, 3 wound points).
STICKERS = (
    ("MW", "Minor wound", "mw"),
    ("SW", "Serious wound", "sw"),
    ("CW", "Crippling wound", "cw"),
)

SOURCE = "Rencounter, version 0.987, by Edward Allen (1998)"

ABBREVIATIONS = {
    "experience": "Ex",
    "fire": "F",
    "melee": "M",
    "horsemanship": "Hm",
    "armour": "Arm",
    "shield": "Shield",
    "hero_threshold": "Hero",
}

RANGE_BANDS = "Short / Medium / Long / Extreme"
MISSILE_HEAD = ('Range "', "Dmg", "Reload", "Shots")
MELEE_HEAD = ("To hit", "Dmg", "Ranks", "Shield")
REPEAT_WORDS = {"S": "slow", "F": "fast", "Fx2": "auto", "Fx3": "auto"}


def _signed(value: Any) -> str:
    if value is None:
        return "special"
    if isinstance(value, int | float) and value > 0:
        return f"+{value:g}"
    if isinstance(value, int | float) and value < 0:
        return f"\u2212{-value:g}"
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _reload(turns: Any) -> str:
    if turns == 0.5:
        return "\u00bd turn"
    return f"{turns:g} turn{'s' if turns != 1 else ''}"


def weapon_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    """Return (column heading, value) pairs for a weapon, or None if the tables lack it.

    A javelin is in both tables: the card quotes it as the missile it mostly is."""
    return _missile_profile(key, tables) or _melee_profile(key, tables)


def _missile_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    missile = tables.get("missile_weapons", {}).get(key)
    if missile is not None:
        # A repeater's kind in a word after its shots ("6 slow"): the text's codes S, F, Fx2
        # and Fx3 would need a legend on every card.
        shots = f"{missile['shots']} {REPEAT_WORDS.get(missile['repeat'], '')}".strip()
        values = (
            "/".join(str(r) for r in missile["ranges"]),
            _signed(missile["damage"]),
            _reload(missile["reload"]),
            shots,
        )
        return tuple(zip(MISSILE_HEAD, values, strict=True))
    return None


def _melee_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    melee = tables.get("melee_weapons", {}).get(key)
    if melee is not None:
        values = (
            _signed(melee["to_hit"]),
            _signed(melee["damage"]),
            str(melee["ranks"]),
            "yes" if melee["shield"] else "no",
        )
        return tuple(zip(MELEE_HEAD, values, strict=True))
    return None


def weapon_legend() -> str:
    return (
        "Range: the longest distance in inches of each band, short/medium/long/extreme. "
        "Dmg: added to the damage roll. Shots: slow or fast repeater; auto: automatic "
        "(bursts of up to 8 or 12)."
    )


def card_notes(stats: Mapping[str, Any], tables: Mapping[str, Any]) -> tuple[str, ...]:
    """Return what the figure's armour and shield do, in words."""
    notes = []
    armour = int(stats.get("armour") or 0)
    if armour:
        name = tables["armour"][armour]["name"]
        notes.append(f"{name} ({armour}): melee attacks on him \u2212{armour}.")
    shield = stats.get("shield") or "none"
    if shield != "none":
        label, modifier = tables["shields"][shield]
        make = tables["shield_makes"].get(stats.get("shield_make") or "rimmed")
        notes.append(f"{label}: attacks on him {_signed(modifier)}; {make[0].lower()}.")
    return tuple(notes)


def track(stats: Mapping[str, Any]) -> tuple[str, int]:
    """Return the track's label and length: five wound points (six kill)."""
    return "Wound points (6 kill)", t.MAX_WOUND_POINTS


def _outcome_words(result: str) -> str:
    return {
        "dead": "Dead",
        "crippling": "Crippling wound (3 points)",
        "serious": "Serious wound (2 points)",
        "minor": "Minor wound (1 point)",
    }[result]


def _damage_rows(tables: Mapping[str, Any]) -> list[list[str]]:
    rows, low = [], 1
    for high, result in tables["damage"]:
        band = f"{low}" if low == high else f"{low}\u2013{high}"
        rows.append([band if low > 1 else f"{high} or less", _outcome_words(result)])
        low = high + 1
    return [*rows, [f"{low} or more", "No effect"]]


def _damage_modifiers() -> list[list[str]]:
    """The damage roll's modifiers, from the numbers the fire and melee checks add."""
    margin = t.GOOD_HIT_MARGIN
    return [
        ["The weapon's damage modifier (weapon tables)", "as listed"],
        [f"Fire: hit by {margin} or more under the number needed", _signed(t.FIRE_GOOD_HIT_DAMAGE)],
        [
            f"Melee: hit by {margin} or more under the number needed",
            _signed(t.MELEE_GOOD_HIT_DAMAGE),
        ],
        [
            "Missile at extreme range (unless the weapon says otherwise)",
            _signed(t.EXTREME_RANGE_DAMAGE),
        ],
        [
            f"Melee against armour {t.HEAVY_ARMOUR_FROM} or more",
            _signed(t.MELEE_HEAVY_ARMOUR_DAMAGE),
        ],
    ]


def _missile_rows(tables: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for key, weapon in tables["missile_weapons"].items():
        profile = dict(_missile_profile(key, tables) or ())
        rows.append([weapon["name"], *(profile[h] for h in MISSILE_HEAD)])
    return rows


def _melee_rows(tables: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for key, weapon in tables["melee_weapons"].items():
        profile = dict(_melee_profile(key, tables) or ())
        rows.append([weapon["name"], *(profile[h] for h in MELEE_HEAD)])
    return rows


#: How the sheet says who applies a modifier: a row naming a rule the check applies itself;
#: any other row is printed only, and the player adds it into the check's modifier.
BY_THE_CHECK = "check"
BY_THE_PLAYER = "player"


def _modifier_rows(rows: Any) -> list[list[str]]:
    return [
        [str(label), _signed(value), BY_THE_CHECK if rule else BY_THE_PLAYER]
        for label, value, rule in rows
    ]


def _shield_rows(tables: Mapping[str, Any]) -> list[list[str]]:
    # The shields table is the one place shield modifiers live; the melee list prints them.
    rows = []
    for key, (label, modifier) in tables["shields"].items():
        if key == "none":
            continue
        also = " (or two weapons)" if key == "small_medium" else ""
        rows.append(
            [f"Against {label[:1].lower()}{label[1:]}{also}", _signed(modifier), BY_THE_CHECK]
        )
    return rows


def _action_section(tables: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    failure = tables["action"]["permanent_failure"]
    masters = {
        "always": "A master (experience 6) always acts.",
        "confirm": "A master's natural 6 is confirmed by a second d6: 4 or more hesitates.",
    }.get(str(options.get("master_variant", "always")), "")
    return {
        "title": "Action roll (d6)",
        "items": [
            {
                "text": "Roll a d6, add the man's wound points and any morale modifier; compare "
                "with his experience. " + masters
            },
            {
                "table": {
                    "caption": "Reading the total",
                    "header": ["Total (d6 + wounds + morale)", "Result"],
                    "rows": [
                        ["Natural 1 (at most 2 wound points)", "Acts, whatever the total"],
                        ["Experience or less", "Acts"],
                        ["Over experience, up to 6", "Hesitates: no action this turn"],
                        ["Exactly 7", "Falls back: retreats, hides or surrenders for now"],
                        [
                            "8 or more",
                            "Falls back; at the permanent-failure number routs "
                            "(2+ wound points: collapses)",
                        ],
                    ],
                }
            },
            {
                "table": {
                    "caption": "Permanent failure number by experience",
                    "header": ["Experience", *failure.keys()],
                    "rows": [
                        ["Name", *(tables["experience"][k] for k in failure)],
                        ["Routs at total", *(f"{v}+" for v in failure.values())],
                    ],
                }
            },
        ],
    }


def _morale_section(tables: Mapping[str, Any]) -> dict[str, Any]:
    mods = tables["morale_modifiers"]
    eliminated = mods["unit_eliminated"]
    return {
        "title": "Morale",
        "items": [
            {"text": "A unit tests when any of these happened (an action roll for each man):"},
            {"steps": list(tables["morale_triggers"])},
            {
                "table": {
                    "caption": "Morale modifiers (added to the action roll)",
                    "header": ["Cause", "Modifier"],
                    "rows": [
                        ["Each man of the unit lost", _signed(mods["per_man_lost"])],
                        ["Unit leader lost", _signed(mods["leader_lost"])],
                        ['A friendly unit eliminated within 24"', _signed(eliminated["within_24"])],
                        ['A friendly unit eliminated within 12"', _signed(eliminated["within_12"])],
                    ],
                }
            },
            {
                "text": f"The force breaks when {tables['breakpoint']} of it is lost "
                "(campaign option)."
            },
        ],
    }


def _fire_section(tables: Mapping[str, Any]) -> dict[str, Any]:
    ranges = tables["range_to_hit"]
    cover = tables["cover"]
    return {
        "title": "Fire (d12)",
        "items": [
            {
                "text": "Roll a d12 at or under Fire skill plus modifiers to hit, then roll "
                f"damage; a natural {t.FIRE_AUTO_MISS} always misses. A natural 1 when the "
                f"roll needed is {_signed(max(int(k) for k in tables['confirmation']))} to "
                f"{_signed(min(int(k) for k in tables['confirmation']))} is a lucky hit "
                "only if confirmed: roll a second d12 at or under the number below; at "
                f"{_signed(min(int(k) for k in tables['confirmation']) - 1)} or worse no "
                "hit is possible."
            },
            {
                "text": "Armour against missiles: thrown weapons, bows and crossbows take the "
                "target's armour off the roll to hit, and its shield's modifier; low-velocity "
                f"firearms (muskets, shotguns) take {_signed(t.LOW_VELOCITY_HEAVY_ARMOUR)} "
                f"against armour {t.HEAVY_ARMOUR_FROM} or more; other firearms ignore armour."
            },
            {
                "table": {
                    "caption": "Range",
                    "header": ["Too close", "Short", "Medium", "Long", "Extreme"],
                    "rows": [[_signed(ranges[k]) for k in ranges]],
                }
            },
            {
                "table": {
                    "caption": "Cover",
                    "header": ["Target", "To hit", "Solid"],
                    "rows": [
                        [label, _signed(mod), "yes" if solid else "no"]
                        for mod, solid, label in cover.values()
                    ],
                }
            },
            {
                "table": {
                    "caption": "Other fire modifiers",
                    "header": ["Situation", "To hit", "Applied by"],
                    "rows": _modifier_rows(tables["fire_modifiers"]),
                }
            },
            {
                "table": {
                    "caption": "Confirming a natural 1 (second d12)",
                    "header": [
                        "Roll needed",
                        *(_signed(int(k)) for k in tables["confirmation"]),
                    ],
                    "rows": [
                        [
                            "Hits at or under",
                            *(str(v) for v in tables["confirmation"].values()),
                        ]
                    ],
                }
            },
        ],
    }


def _melee_section(tables: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "title": "Melee (d12 against d12)",
        "items": [
            {
                "text": "The attacker rolls a d12 at or under Melee skill plus modifiers to "
                "strike; the defender then rolls at or under his Melee skill to parry. "
                "A blow not parried rolls damage."
            },
            {
                "table": {
                    "caption": "Melee modifiers",
                    "header": ["Situation", "Modifier", "Applied by"],
                    "rows": [
                        *_modifier_rows(tables["melee_modifiers"]),
                        *_shield_rows(tables),
                    ],
                }
            },
        ],
    }


def _damage_section(tables: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "title": "Damage (d12 + weapon's damage modifier)",
        "items": [
            {
                "table": {
                    "caption": "",
                    "header": ["d12 + modifier", "Wound"],
                    "rows": _damage_rows(tables),
                }
            },
            {
                "table": {
                    "caption": "Damage modifiers",
                    "header": ["Situation", "Damage roll"],
                    "rows": _damage_modifiers(),
                }
            },
            {
                "text": "Wound points add up: six kill. Each wound point adds 1 to every action "
                "roll and takes 1 from fire and melee."
            },
        ],
    }


_FATES = {
    "sepsis": "Sepsis: roll two dice for this point",
    "permanent": "Permanent",
    "healed": "Heals",
}


def _aftermath_rows(bands: Iterable[Any]) -> list[list[str]]:
    rows, low = [], 1
    for top, result in bands:
        if top >= low:  # a band no face reaches is not printed
            rows.append([str(low) if low == top else f"{low}\u2013{top}", _FATES[result]])
        low = max(low, top + 1)
    return rows


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _rerolled(bands: Iterable[Any]) -> list[str]:
    """The faces prompt care rerolls: every face that would not heal."""
    low, faces = 1, []
    for top, result in bands:
        if result != "healed":
            faces += [str(face) for face in range(low, min(top, 6) + 1)]
        low = max(low, top + 1)
    return faces


def _aftermath_section(tables: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    bands = tables["aftermath_bands"]
    rerolled = _rerolled(bands)
    care = (
        f"prompt care rerolls each {_or(rerolled)} once"
        if options.get("prompt_care") and rerolled
        else ""
    )
    hazard = int(options.get("hazard") or 0)
    extra = [s for s in (care, f"hazardous: \u2212{hazard} on each die" if hazard else "") if s]
    return {
        "title": "After the battle",
        "items": [
            {
                "table": {
                    "caption": "Wound aftermath: a d6 per wound point"
                    + (f" ({'; '.join(extra)})" if extra else ""),
                    "header": ["d6", "The wound point"],
                    "rows": _aftermath_rows(bands),
                }
            },
            {
                "text": "More than five permanent points from one fight kill. Improvement: roll "
                "each stat's own die (experience and horsemanship d6, fire and melee d12); a "
                "roll over the stat raises it by one."
            },
        ],
    }


def _shields_table(tables: Mapping[str, Any]) -> dict[str, Any]:
    shields = tables["shields"].items()
    return {
        "table": {
            "caption": "Shields (against missiles armour stops, and in melee)",
            "header": ["Shield", "To hit the bearer"],
            "rows": [[label, _signed(m)] for key, (label, m) in shields if key != "none"],
        }
    }


def _caps_text(tables: Mapping[str, Any]) -> dict[str, Any]:
    caps = ", ".join(f"{stat} {cap}" for stat, cap in tables["improvement_caps"].items())
    return {"text": f"House caps: improvement raises no stat past its cap ({caps})."}


def _turn_section(options: Mapping[str, Any]) -> dict[str, Any]:
    reshuffle = "a reshuffle card ends the turn early" if options.get("reshuffle_card") else ""
    held = "a unit may hold its card and act later" if options.get("held_cards") else ""
    per_unit = int(options.get("cards_per_unit") or 1)
    notes = "; ".join(s for s in (reshuffle, held) if s)
    return {
        "title": "Turn sequence",
        "items": [
            {
                "steps": [
                    f"Shuffle {per_unit} card{'s' if per_unit != 1 else ''} per unit into the "
                    "deck" + (f"; {notes}." if notes else "."),
                    "Turn a card: its unit activates. Each man makes an action roll, then "
                    "moves, fires, reloads or fights.",
                    "A turn is 5 seconds; when every card is out, the turn ends and the units "
                    "that must, test morale.",
                ]
            },
            {
                "table": {
                    "caption": "Orders: one action roll for the whole unit",
                    "header": ["Order", "Who rolls", "The unit may"],
                    "rows": [
                        ["Follow Me", "The leader", "move with him, nothing else"],
                        ["Formed Charge", "Its least experienced man", "move into melee"],
                        [
                            "Volley Fire",
                            "The leader (who does not fire)",
                            "shoot a basic shot each, in formation, loaded",
                        ],
                    ],
                }
            },
        ],
    }


def _weapons_section(tables: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "title": "Weapons",
        "items": [
            {
                "table": {
                    "caption": "Missile weapons (range bands in inches)",
                    "header": ["Weapon", *MISSILE_HEAD],
                    "rows": _missile_rows(tables),
                }
            },
            {
                "table": {
                    "caption": "Melee weapons",
                    "header": ["Weapon", *MELEE_HEAD],
                    "rows": _melee_rows(tables),
                }
            },
            {"text": weapon_legend()},
        ],
    }


def _options_section(options: Mapping[str, Any]) -> dict[str, Any]:
    on = {
        "hit_locations": "Hit locations: a d6 says where each hit lands.",
        "heroes": "Heroes: a natural roll in the hero window makes a hero.",
        "weapon_breakage": "Weapons may break in a parry.",
        "leader_morale": "A leader's morale influences his men.",
        "variable_knockdown": "Variable knockdown.",
        "last_shot": "A last shot against a charge.",
    }
    rules = [text for key, text in on.items() if options.get(key)]
    return {
        "title": "Optional rules in use",
        "items": [{"steps": rules or ["No optional rules: the rules as written."]}],
    }


def _as_house(
    section: dict[str, Any], drawn_on: tuple[str, ...], changed: frozenset[str]
) -> dict[str, Any]:
    """Mark a section that prints a table the pack changed as house rules."""
    if changed.intersection(drawn_on):
        section["house"] = True
    return section


def sheet(
    tables: Mapping[str, Any], options: Mapping[str, Any], changed: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """Return the quick-reference sheet's sections, in reading order; a section drawing on
    an editable table `changed` names (`RuleSystem.changed_tables()`) is marked as house rules."""
    edited = frozenset(changed)
    # Shields and caps are on the cards and in the campaign procedure; the sheet prints them
    # only when the club changed them, so the table sees the house rule.
    weapons = _weapons_section(tables)
    if "shields" in edited:
        weapons["items"].insert(-1, _shields_table(tables))
    aftermath = _aftermath_section(tables, options)
    if "improvement" in edited:
        aftermath["items"].append(_caps_text(tables))
    return [
        _turn_section(options),
        _action_section(tables, options),
        _as_house(_fire_section(tables), ("range_to_hit", "cover", "fire_modifiers"), edited),
        _as_house(_melee_section(tables), ("melee_modifiers", "shields"), edited),
        _as_house(_damage_section(tables), ("damage",), edited),
        _morale_section(tables),
        _as_house(weapons, ("missile_weapons", "melee_weapons", "shields"), edited),
        _as_house(aftermath, ("aftermath", "improvement"), edited),
        _options_section(options),
    ]
