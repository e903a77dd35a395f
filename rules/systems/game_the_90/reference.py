"""Game the 90% at the table: the unit card's abbreviations and missiles, and the
quick-reference sheet's sections, built from the system's tables (see rencounter/reference.py
for the shape of a section). Everything is read at call time, so a house-rules pack shows; a
section drawing on a table the applied pack changes is marked as house rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.printed import PrintedOnly, legend, marked
from rules.systems.game_the_90 import tables as t

# Hit markers for a unit's base: single hits and fives (removed at the track's end).
STICKERS = (("1H", "One hit", "mw"), ("5H", "Five hits", "cw"))

SOURCE = (
    'Wargame rules "Game the 90%!", a battle game for 1000 warriors a force, A.D. 500\u20131100 '
    "(its author is not named in the text)"
)

ABBREVIATIONS = {
    "type": "Type",
    "missiles": "Missiles",
    "hits": "Hits",
    "out_of_missiles": "Out",
}
WEAPON_HEAD = ('Range "', "Shooting")
# Stats that name a weapon although they are a single choice (a unit's missiles).
WEAPON_CHOICES = ("missiles",)


def weapon_profile(key: str, tables: Mapping[str, Any]) -> tuple[tuple[str, str], ...] | None:
    """Return the missiles' range in inches and the shooting roll."""
    ranges = tables.get("shooting", {}).get("ranges", {})
    if key not in ranges:
        return None
    return (('Range "', str(ranges[key])), ("Shooting", tables["shooting"]["roll"]))


def weapon_legend(*, snapshot: t.G90Tables = t.BASE) -> str:
    faces = snapshot.OUT_OF_MISSILES_FACES
    if not faces:
        return "Missiles never run out."
    return f"A natural {t.faces_text(faces)} on the shooting die: out of missiles."


def _unit_type(tables: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    return next((u for u in tables.get("unit_types", []) if u["type"] == key), None)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def card_notes(
    stats: Mapping[str, Any], tables: Mapping[str, Any], *, snapshot: t.G90Tables = t.BASE
) -> tuple[str, ...]:
    """Return what the unit type moves and fights like, in words."""
    unit = _unit_type(tables, str(stats.get("type") or ""))
    if unit is None:
        return ()
    shooting = snapshot.SHOOTING_MODIFIER.get(unit["type"])
    shoots = f"; shooting Hits {_signed(shooting)}" if shooting is not None else ""
    notes = [
        f'Moves Dx inches, Fast move +{unit["fast_bonus_inches"]}"; '
        f"{unit['turns']} turn{'s' if unit['turns'] != 1 else ''} a move; "
        f"melee Hits {_signed(unit['melee_modifier'])}{shoots}."
    ]
    if unit["armoured"]:
        notes.append("Armoured: Hits on it from shooting and melee are halved.")
    return tuple(notes)


def track(stats: Mapping[str, Any], *, snapshot: t.G90Tables = t.BASE) -> tuple[str, int]:
    removed_at = snapshot.REMOVED_AT
    return f"Hits (removed at {removed_at})", removed_at - 1


#: Editable cells no check reads, marked on the sheet (`rules.printed`): a unit turns as the
#: player moves it, and no check rolls for a Turn.
PRINTED_ONLY = (PrintedOnly("unit_types", "turns_per_move", "unit_types", "unit_types[].turns"),)

#: The editable tables (`house.py`) each sheet section draws on, by section title.
SECTION_TABLES = {
    "Units": ("unit_types", "fast_bonus", "removal"),
    "Moving (Dx inches)": ("fast_bonus",),
    "Shooting (Dx Hits)": ("unit_types", "missiles", "out_of_missiles"),
    "Melee (Dx Hits)": ("unit_types",),
    "Rally (Dx)": ("rally_bands", "removal"),
}


def _marked(sections: list[dict[str, Any]], changed: Iterable[str]) -> list[dict[str, Any]]:
    """Mark as house rules each section drawing on a table the pack `changed`."""
    changed = set(changed)
    for section in sections:
        if changed.intersection(SECTION_TABLES.get(section["title"], ())):
            section["house"] = True
    return sections


def _out_of_missiles_text(faces: list[int]) -> str:
    if not faces:
        return "Missiles never run out."
    return f"A natural {t.faces_text(frozenset(faces))} runs the unit out of missiles."


def sheet(
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
    changed: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """Return the quick-reference sheet's sections, in reading order."""
    die = tables["die"]
    shooting, melee, rally = tables["shooting"], tables["melee"], tables["rally"]
    floor = rally["floor"]
    sections: list[dict[str, Any]] = [
        {
            "title": "Turn sequence",
            "items": [
                {
                    "steps": [
                        "Player A (the attacker) takes all four phases with every unit: "
                        "shoot, move, melee, rally.",
                        "Then player D (the defender) does the same.",
                    ]
                },
                {
                    "text": f"Dx is the die the campaign uses for every roll: {die['name']}, "
                    f"faces {', '.join(str(f) for f in die['faces'])}."
                },
            ],
        },
        {
            "title": "Units",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": [
                            "Type",
                            "Move class",
                            'Fast move +"',
                            marked("Turns"),
                            "Melee",
                            "Missiles",
                        ],
                        "rows": [
                            [
                                u["name"],
                                str(u["move_class"]),
                                f"+{u['fast_bonus_inches']}",
                                str(u["turns"]),
                                _signed(u["melee_modifier"]),
                                ", ".join(m.capitalize() for m in u["missiles"]) or "–",
                            ]
                            for u in tables["unit_types"]
                        ],
                    }
                },
                {"text": f"A unit is removed at {tables['removal']['removed_at_hits']} Hits."},
                legend(),
            ],
        },
        {
            "title": "Moving (Dx inches)",
            "items": [
                {
                    "steps": [
                        "A move is Dx inches; a Fast move adds the type's bonus (table above).",
                        "A charge reaches its target only if the move roll covers the distance "
                        "to contact.",
                        "Measuring may be done at any time.",
                    ]
                }
            ],
        },
        {
            "title": "Shooting (Dx Hits)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Missiles", "Range (inches)"],
                        "rows": [[k.capitalize(), str(v)] for k, v in shooting["ranges"].items()],
                    }
                },
                {
                    "table": {
                        "caption": "Hits from shooting",
                        "header": ["Situation", "Hits"],
                        "rows": [
                            *[[k, _signed(v)] for k, v in shooting["modifiers"].items()],
                            *[
                                [f"Target: {h.removeprefix('target ')}", "halved"]
                                for h in shooting["halve"]
                            ],
                            *[[d[:1].upper() + d[1:], "doubled"] for d in shooting["double"]],
                        ],
                    }
                },
                {"text": _out_of_missiles_text(shooting["out_of_missiles_on"])},
            ],
        },
        {
            "title": "Melee (Dx Hits)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Situation", "Hits"],
                        "rows": [
                            *[
                                [f"Attacker: {k}", _signed(v)]
                                for k, v in melee["modifiers"].items()
                            ],
                            *[
                                [f"Target: {h.removeprefix('target ')}", "halved"]
                                for h in melee["halve"]
                            ],
                            *[[d[:1].upper() + d[1:], "doubled"] for d in melee["double"]],
                        ],
                    }
                },
                {
                    "text": "At most two halvings (never below 1/4), rounded up; a doubling "
                    "cancels a halving."
                },
            ],
        },
        {
            "title": "Rally (Dx)",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Dx", "Hits removed"],
                        "rows": [[b["faces"], str(b["hits_off"])] for b in rally["bands"]],
                    }
                },
                {
                    "text": "Only a unit that did not shoot, move or fight this turn rallies: "
                    "roll the Dx and take that many Hits off. Once past "
                    f"{floor['once_past_hits']} Hits a unit never rallies below "
                    f"{floor['never_below']}."
                },
            ],
        },
        {
            "title": "Terrain",
            "items": [
                {
                    "table": {
                        "caption": "",
                        "header": ["Feature", "Kind", "Effect"],
                        "rows": [
                            [r["terrain"], r["kind"], r["effect"][:1].upper() + r["effect"][1:]]
                            for r in tables["terrain"]
                        ],
                    }
                }
            ],
        },
    ]
    return _marked(sections, changed)
