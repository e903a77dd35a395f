"""Escarmouche's tables as data: ratings, skills, terrain, weapons and the effects tables.

The checks, the stat schema and the quick-reference sheets all read these, so a change here
changes every one of them. The tables a club may edit as house rules (`house.py`) are not module
attributes: they are the fields of one frozen snapshot, `EscarmoucheTables`, whose values as
written are `BASE`; checks, stats and sheets are built from a snapshot and read it there
(`RuleSystem.with_house` builds a club's with `dataclasses.replace`). The fields keep the
tables' constant names (`tables.WEAPONS`), which are what a pack's tables build.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from rules.aftermath import AFTERMATH_OUTCOMES

RATINGS: tuple[tuple[int, str], ...] = (
    (1, "Lowest of the low, or terrified non-combatants"),
    (2, "Raw troops, or courageous non-combatants"),
    (3, "Average troops"),
    (4, "Veteran characters"),
    (5, "Heroic characters"),
)

#: Skill stat name -> what it covers.
SKILLS: tuple[tuple[str, str], ...] = (
    ("shooter", "Shooter: missile weapons"),
    ("fighter", "Fighter: melee"),
    ("rider", "Rider: horsemanship"),
    ("pike_trailer", "Pike trailer: pole arms"),
    ("artillerist", "Artillerist: cannon"),
    ("leader", "Leader: marshalling other figures"),
)


@dataclass(frozen=True)
class Row:
    """A keyed table row with the number of passive dice it costs."""

    key: str
    label: str
    passive: int


#: The weapon class the artillery check fires (a club's weapon table must keep it).
CANNON = "cannon"
#: What a check or a new figure starts from, where the club's tables still hold it (else the
#: table's first row).
DEFAULT_TERRAIN = "clear"
DEFAULT_WEAPON = "carbine"
DEFAULT_MELEE = "hand"


def terrain_constants(rows: tuple[Row, ...]) -> dict[str, Any]:
    """The terrain table and the lookups the checks read: passive dice added to a move."""
    return {
        "TERRAIN": rows,
        "TERRAIN_BY_KEY": {row.key: row for row in rows},
        "TERRAIN_PASSIVE": {row.key: row.passive for row in rows},
    }


def weapon_constants(rows: tuple[Row, ...]) -> dict[str, Any]:
    """The weapon classes and the lookups the checks read: passive dice added to a shot."""
    return {
        "WEAPONS": rows,
        "WEAPON_BY_KEY": {row.key: row for row in rows},
        # A plain dict of numbers: every shot reads it once.
        "WEAPON_PASSIVE": {row.key: row.passive for row in rows},
    }


@dataclass(frozen=True)
class MeleeWeapon:
    """A melee weapon: a pike strikes first against horse; the weaponless start Disarmed."""

    key: str
    label: str
    pike: bool = False
    weaponless: bool = False


def melee_constants(rows: tuple[MeleeWeapon, ...]) -> dict[str, Any]:
    """The melee weapons and their lookup by key (stats name a figure's weapon by key)."""
    return {"MELEE_WEAPONS": rows, "MELEE_BY_KEY": {row.key: row for row in rows}}


def default_key(rows: tuple[Row, ...] | tuple[MeleeWeapon, ...], preferred: str) -> str:
    """The row a parameter or a new figure defaults to: `preferred` if the table has it."""
    keys = [row.key for row in rows]
    return preferred if preferred in keys else keys[0]


@dataclass(frozen=True)
class EffectRow:
    """One band of an effects table: the smallest winning difference it covers and its result.

    A band runs up to the next row's difference; the last covers every larger one. `hits` is
    the wounds taken at the band's own difference; with `more_hits`, one more for each point
    above it (the text's multiple hits).
    """

    diff: int
    key: str
    label: str
    shaken: bool = False
    hits: int = 0
    more_hits: bool = False
    disarmed: bool = False
    prone: bool = False
    pushed_back: bool = False


@dataclass(frozen=True)
class EffectsTable:
    """An effects table: bands of winning differences, from 0 (a tie won on rating) upwards."""

    rows: tuple[EffectRow, ...]

    def __post_init__(self) -> None:
        # Every difference must fall in exactly one band, so the bands start at 0 and rise.
        diffs = [row.diff for row in self.rows]
        if not diffs or diffs[0] != 0 or any(b <= a for a, b in pairwise(diffs)):
            raise ValueError("effects bands must start at a difference of 0 and rise row by row")

    def __iter__(self) -> Iterator[EffectRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> EffectRow:
        return self.rows[index]

    def row(self, diff: int) -> EffectRow:
        """Return the band a winning difference falls in."""
        for row in reversed(self.rows):
            if diff >= row.diff:
                return row
        return self.rows[0]

    def hits(self, diff: int) -> int:
        """Return the wounds a winning difference inflicts (0 for a band without hits)."""
        row = self.row(diff)
        if not row.hits:
            return 0
        return row.hits + (diff - row.diff if row.more_hits else 0)

    def span(self, row: EffectRow) -> str:
        """The differences a band covers, as the sheet prints them: "2", "3-4" or "5+"."""
        index = self.rows.index(row)
        if index == len(self.rows) - 1:
            return f"{row.diff}+"
        top = self.rows[index + 1].diff - 1
        return str(row.diff) if top == row.diff else f"{row.diff}-{top}"


def effect_row(table: EffectsTable, diff: int) -> EffectRow:
    """Return the row a winning difference falls in."""
    return table.row(diff)


def hits_for(table: EffectsTable, diff: int) -> int:
    """Return the wounds a winning difference inflicts (0 for rows without hits)."""
    return table.hits(diff)


#: Ones in a marshal roll -> what happens (three or more: nobody moves).
MARSHAL_RESULTS: tuple[tuple[int, str, str], ...] = (
    (0, "all_move", "All move; the marshalled figures' turns end, the marshal acts on"),
    (1, "move_figure_ends", "All move, then every one of them ends its turn"),
    (2, "move_side_ends", "All move, and the side's turn is over"),
    (3, "no_move", "Nobody moves, and the side's turn is over"),
)

INITIATIVE: tuple[tuple[str, str], ...] = (
    ("keeps_initiative", "No 1 on any of the acting figure's dice: it may act again"),
    ("figure_ends", "A single 1: the figure's turn ends; act with another figure"),
    ("side_ends", "Two 1s in one roll, or the side's second 1 this turn: the side's turn ends"),
)

#: Replaces one active die with a passive die each, in a shot or a fight.
SHOOTING_PENALTIES = ("Shooter shaken (per marker)", "Target has cover")
FIGHTING_PENALTIES = (
    "Defender uphill",
    "Defender has cover",
    "Attacker weaponless",
    "Attacker shaken (per marker)",
)


#: Where the text is ambiguous, Muster's reading, shown with the tables (docs/rules/escarmouche.md).
READINGS = (
    "Muster's reading: Shaken adds one passive die per marker to a move or a develop (the text "
    "gives Shaken a passive-dice penalty in all actions; those have no active die to replace).",
)

# --- the tables a club may edit (house.py) ---------------------------------------------------

#: Base values of the editable tables: the fields of `BASE`. Derived lookups (by key, passive
#: dice by key) are built with their table so a pack's lookups always match its rows.
_EDITABLE: dict[str, Any] = {
    **terrain_constants(
        (
            # Passive dice added to a move, by the ground moved through.
            Row("clear", "Clear or open ground", 2),
            Row("broken", "Broken or scrub ground, light woods, moderate hills", 3),
            Row("heavy", "Heavy ground: swamp, dense forest, steep hillside", 4),
            Row("difficult", "Difficult ground, swift rivers, or moving wagons and cannon", 5),
        )
    ),
    **weapon_constants(
        (
            # Passive dice added to a shot, by weapon class (the time spent loading and aiming).
            Row("thrown", "Thrown objects", 1),
            Row("short_bow", "Short bow", 2),
            Row("carbine", "Carbine, pistol, light crossbow, longbow", 3),
            Row("musket", "Musket, heavy crossbow", 4),
            Row(CANNON, "Cannon of all sorts", 5),
        )
    ),
    **melee_constants(
        (
            MeleeWeapon("hand", "Sword, axe or other hand weapon"),
            MeleeWeapon("pike", "Pike", pike=True),
            MeleeWeapon("none", "Weaponless", weaponless=True),
        )
    ),
    "SHOOTING_EFFECTS": EffectsTable(
        (
            EffectRow(0, "shaken", "Shaken", shaken=True),
            EffectRow(1, "cowered", "Cowered: goes prone for cover", prone=True),
            EffectRow(2, "hit", "Hit and shaken", shaken=True, hits=1),
            EffectRow(
                3, "multiple_hits", "Multiple hits and shaken", shaken=True, hits=2, more_hits=True
            ),
        )
    ),
    "FIGHTING_EFFECTS": EffectsTable(
        (
            EffectRow(0, "pushed_back", "Pushed back (higher rating wins a tie)", pushed_back=True),
            EffectRow(1, "shaken", "Shaken, pushed back", shaken=True, pushed_back=True),
            EffectRow(2, "disarmed", "Disarmed, pushed back", disarmed=True, pushed_back=True),
            EffectRow(
                3, "hit", "Hit and shaken, pushed back", shaken=True, hits=1, pushed_back=True
            ),
            EffectRow(
                4,
                "multiple_hits",
                "Multiple hits and shaken, pushed back",
                shaken=True,
                hits=2,
                more_hits=True,
                pushed_back=True,
            ),
        )
    ),
    # Muster's house campaign rules (campaign.py): the die each stat rolls over to improve.
    "IMPROVEMENT_DICE": {"rating": 6, "skill": 4},
    "MAX_RATING": 5,
    "MAX_SKILL": 3,
}


@dataclass(frozen=True, eq=False)
class EscarmoucheTables:
    """Every editable table, as one snapshot, with the lookups built with it. Compared and
    hashed by identity: a snapshot is built once per pack."""

    TERRAIN: tuple[Row, ...]
    TERRAIN_BY_KEY: dict[str, Row]
    TERRAIN_PASSIVE: dict[str, int]
    WEAPONS: tuple[Row, ...]
    WEAPON_BY_KEY: dict[str, Row]
    WEAPON_PASSIVE: dict[str, int]
    MELEE_WEAPONS: tuple[MeleeWeapon, ...]
    MELEE_BY_KEY: dict[str, MeleeWeapon]
    SHOOTING_EFFECTS: EffectsTable
    FIGHTING_EFFECTS: EffectsTable
    IMPROVEMENT_DICE: dict[str, int]
    MAX_RATING: int
    MAX_SKILL: int


#: The tables as the text has them (with Muster's house campaign rules).
BASE = EscarmoucheTables(**_EDITABLE)


def tables(options: Mapping[str, Any], *, snapshot: EscarmoucheTables = BASE) -> dict[str, Any]:
    """Return every reference table as JSON, including the house rules the options switch on,
    from `snapshot` (the text's; a club's under its house rules, bound by `with_house`)."""
    shooting, fighting = snapshot.SHOOTING_EFFECTS, snapshot.FIGHTING_EFFECTS
    data: dict[str, Any] = {
        "ratings": [{"rating": r, "type": label} for r, label in RATINGS],
        "skills": [
            {"skill": key, "label": label, "range": f"0-{snapshot.MAX_SKILL}"}
            for key, label in SKILLS
        ],
        "wounds": _wounds_table(options),
        "initiative": [{"result": key, "meaning": text} for key, text in INITIATIVE],
        "move_terrain": [_row_json(row) for row in snapshot.TERRAIN],
        "marshal": [
            {"ones": n, "result": key, "meaning": text} for n, key, text in MARSHAL_RESULTS
        ],
        "weapons": [_row_json(row) for row in snapshot.WEAPONS],
        "melee_weapons": [_melee_json(row) for row in snapshot.MELEE_WEAPONS],
        "shooting_penalties": list(SHOOTING_PENALTIES),
        "shooting_effects": [_effect_json(shooting, row) for row in shooting],
        "fighting_penalties": list(FIGHTING_PENALTIES),
        "fighting_effects": [_effect_json(fighting, row) for row in fighting],
        "readings": list(READINGS),
    }
    if options.get("house_campaign"):
        data["house_rules"] = _house_rules_table(snapshot)
    return data


def _wounds_table(options: Mapping[str, Any]) -> dict[str, Any]:
    one = options.get("wounds_rule") == "one"
    return {
        "rule": "one" if one else "rating",
        "meaning": "every figure has 1 wound" if one else "wounds equal the rating",
    }


def _row_json(row: Row) -> dict[str, Any]:
    return {"key": row.key, "label": row.label, "passive_dice": row.passive}


def _melee_json(row: MeleeWeapon) -> dict[str, Any]:
    return {"key": row.key, "label": row.label, "pike": row.pike, "weaponless": row.weaponless}


def _effect_json(table: EffectsTable, row: EffectRow) -> dict[str, Any]:
    data: dict[str, Any] = {"diff": table.span(row), "result": row.key, "label": row.label}
    if row.hits:
        data["hits"] = _hits_text(row)
    return data


def _hits_text(row: EffectRow) -> str:
    """A band's wounds in words: a number, or "difference - 1" when they grow with it."""
    if not row.more_hits:
        return str(row.hits)
    less = row.diff - row.hits
    if less == 0:
        return "difference"
    return f"difference - {less}" if less > 0 else f"difference + {-less}"


def _house_rules_table(snapshot: EscarmoucheTables) -> dict[str, Any]:
    dice, max_rating, max_skill = snapshot.IMPROVEMENT_DICE, snapshot.MAX_RATING, snapshot.MAX_SKILL
    return {
        "label": "House rules (Muster's campaign rules adapted from Rencounter)",
        "improvement": [
            {
                "stat": "rating",
                "die": f"d{dice['rating']}",
                "rule": f"roll over the rating to gain 1 (max {max_rating}); once per battle",
            },
            {
                "stat": "skills",
                "die": f"d{dice['skill']}",
                "rule": f"each skill of 1+ used in the battle: roll over it to gain 1 "
                f"(max {max_skill})",
            },
        ],
        "wound_aftermath": [
            {"d6": "1", "result": "sepsis: roll that wound again as two dice"},
            {"d6": "2", "result": "permanent wound"},
            {"d6": "3-6", "result": "healed after more than a month of campaign time"},
            {"d6": "-", "result": "more than 5 permanent from one battle: dies"},
        ],
        "aftermath_outcomes": list(AFTERMATH_OUTCOMES),
    }
