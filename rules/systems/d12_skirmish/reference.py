"""The d12 skirmish game at the table: card abbreviations and weapon profiles, and the
quick-reference sheet's sections, built from the system's tables (see rencounter/reference.py
for the shape of a section). A card reads the tables snapshot it is handed (`snapshot=`, the
system's `RuleSystem.snapshot`), the sheet the reference tables built from it, so a club's
house-rules pack shows on both; a section drawing on a table the pack changes is marked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.systems.d12_skirmish import tables as t

# Stickers for the bases: a wound, and a figure pinned by morale.
STICKERS = (("W", "Wound", "cw"), ("P", "Pinned", "mw"))

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
DASH = "\u2013"
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
    key: str,
    tables: Mapping[str, Any],
    stats: Mapping[str, Any] | None = None,
    *,
    snapshot: t.D12Tables = t.BASE,
) -> tuple[tuple[str, str], ...] | None:
    """Return a firearm's range bands (inches) and reload, or a melee weapon's bonus."""
    loading = (stats or {}).get("loading") or "muzzle"
    firearms, melee = snapshot.FIREARMS, snapshot.MELEE_WEAPONS
    if key in firearms:
        close, medium, extreme = firearms[key]
        every_turn = loading in t.FIRES_EVERY_TURN or key in snapshot.FIREARMS_EVERY_TURN
        values = (
            _band(close),
            _band(medium),
            _band(extreme),
            "every turn" if every_turn else "a turn",
        )
        return tuple(zip(FIREARM_HEAD, values, strict=True))
    if key in melee:
        return (("Hand to hand", _signed(melee[key])),)
    return None


def weapon_legend(*, snapshot: t.D12Tables = t.BASE) -> str:
    """What a card's weapon columns mean, with the number to hit and the range modifiers."""
    names, modifiers = dict(snapshot.RANGES), snapshot.RANGE_MODIFIER
    ranges = [
        f"{names[key].lower()}{' range' if not index else ''} {_signed(modifiers[key])}"
        for index, key in enumerate(k for k in names if modifiers[k])
    ]
    shown = f"; {', '.join(ranges)}" if ranges else ""
    hit_on = snapshot.HIT_ON
    return f"Ranges in inches. To hit: d12 + troop + modifiers, {hit_on} or more{shown}."


def card_notes(
    stats: Mapping[str, Any], tables: Mapping[str, Any], *, snapshot: t.D12Tables = t.BASE
) -> tuple[str, ...]:
    """Return the ability's effect and the misfire note for a firearm."""
    notes = [_troop_note(snapshot, stats)]
    ability = stats.get("ability") or "none"
    for _, key, name, effect in snapshot.ABILITIES:
        if key == ability:
            notes.append(f"{name}: {effect}.")
    firearms = snapshot.FIREARMS
    if any(w in firearms for w in stats.get("weapons") or ()):
        bands = ", ".join(
            f"{_face_band(low, high)} {result.replace('_', ' ')}"
            for low, high, result in sorted(snapshot.MISFIRE_TABLE)
        )
        notes.append(f"Natural 1 to hit: misfire (d12: {bands}).")
    return tuple(notes)


def _troop_note(snapshot: t.D12Tables, stats: Mapping[str, Any]) -> str:
    """Return the troop type's modifiers as the figure rolls them: to hit, hand to hand
    (one less in the field it is not expert in) and morale, and the wound's."""
    troop = str(stats.get("troop") or "regular")
    base = snapshot.TROOP_MODIFIER[troop]
    expertise = stats.get("expertise") or "all"
    shoot = base - (t.OFF_FIELD_PENALTY if expertise == "combat" else 0)
    melee = base - (t.OFF_FIELD_PENALTY if expertise == "shooting" else 0)
    return (
        f"{snapshot.TROOP_NAMES[troop]}: {_signed(shoot)} to hit, {_signed(melee)} hand to hand, "
        f"{_signed(base)} morale; {_signed(t.PER_WOUND)} on each per wound."
    )


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
    rows.append([_face_band(1, start), *last])  # type: ignore[misc]  # the loop above always sets `last` (faces 1-12)
    return rows


def _face_band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\u2013{high}"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def _modifiers(mods: Mapping[str, int]) -> list[list[str]]:
    return [[k[:1].upper() + k[1:], _signed(v)] for k, v in mods.items()]


def _thrown_text(thrown: Mapping[str, str]) -> str:
    """The cavalry wound bands that throw the rider, and what a throw makes of them."""
    if not thrown:
        return "A wounded cavalryman is never thrown."
    spans = sorted(tuple(int(face) for face in span.split("-")) for span in thrown)
    low, high = spans[0][0], max(span[-1] for span in spans)
    joined = sum(span[-1] - span[0] + 1 for span in spans) == high - low + 1
    faces = _face_band(low, high) if joined else " or ".join(_face_band(s[0], s[-1]) for s in spans)
    after = "; ".join(f"after {span.replace('-', DASH)}: {words}" for span, words in thrown.items())
    # The text throws every cavalryman wounded on these faces; the second d12 only says
    # how badly the fall goes.
    return (
        f"A cavalryman wounded on {faces} is always thrown from his horse, and rolls another "
        f"d12: on {t.THROWN_ON} or more the fall is worse ({after}). A thrown rider who "
        "survives stays on foot or spends a turn remounting."
    )


def _wounding_text(wounding: Mapping[str, Any]) -> str:
    natural = (
        "a natural 12 always kills"
        if wounding["natural 12"] == "dead"
        else "a natural 12 always scores 12"
    )
    thrown = wounding[f"cavalry thrown (d12 {t.THROWN_ON}+)"]
    return f"Close range +{wounding['close range']} to the roll; {natural}. {_thrown_text(thrown)}"


def _reload_text(reload: Mapping[str, Any]) -> str:
    text = (
        "Reload: a muzzle-loader reloads for a turn; breechloaders and repeaters fire every turn."
    )
    always = reload.get("always every turn") or []
    if always:  # a club's repeating arm
        verb = "fires" if len(always) == 1 else "fire"
        text += f" {' and '.join(always)} {verb} every turn whatever its loading."
    return text


#: The editable tables (house.py) each section of the sheet draws on: a pack that changes one
#: marks the section as a house rule.
SECTION_TABLES = {
    "Shooting (d12)": {"firearms", "troop_types", "ranges", "cover", "to_hit", "misfire"},
    "Wounding (d12 per hit)": {"foot_wounds", "cavalry_wounds"},
    "Hand to hand": {"melee_weapons", "troop_types"},
    "Morale (d12)": {"troop_types"},
    "Abilities (d12 when a figure is made)": {"abilities"},
}


def changed_tables(tables: Mapping[str, Any]) -> frozenset[str]:
    """The editable tables the reference tables say the club's pack changed."""
    return frozenset(tables.get("house_tables", ()))


def _mark_house_rules(sections: list[dict[str, Any]], changed: frozenset[str]) -> None:
    for section in sections:
        if SECTION_TABLES.get(section["title"], set()) & changed:
            section["house"] = True


def sheet(
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
    changed: Iterable[str] | None = None,
) -> list[dict[str, Any]]:
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
                        "header": ["Ground", "Move"],
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
                {"text": _reload_text(tables["reload"])},
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
                {"text": _wounding_text(tables["wounding"])},
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
    _mark_house_rules(
        sections, frozenset(changed) if changed is not None else changed_tables(tables)
    )
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
