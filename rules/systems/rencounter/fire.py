"""The fire check: to hit with range, armour, cover and repeats, then damage per hit.

The weapons, shields, cover, range and damage tables, and the sheet's extra-shot penalty, are
house-rules tables: every function here that reads one takes the tables snapshot
(`RencounterTables`) as its first argument. A plan reads them once for its parameters (cached
per snapshot and parameters), and the parameters' choices are built from them (`build_params`,
for each pack by the system's `HouseSpec.built_from`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any, NamedTuple, TypeVar

from rules.checks import Effect, Outcome, Roller, counted, face_steps, no_dice
from rules.dice import D6, D12, Dice
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.rencounter import tables as t
from rules.systems.rencounter.combat import (
    POINTS,
    DamageTable,
    Dist,
    damage_result,
    level_of_points,
    shot_hit_ways,
    shot_roll,
)

FIRE_OUTCOMES = ("miss", *t.DAMAGE_RESULTS)
NO_WEAPON = "none"


def _shots_rule(
    weapons: Mapping[str, t.MissileWeapon],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The clean step refusing more shots than the weapon's repeat rate allows (for `weapons`).

    It is built with the weapons it checks against: a schema validates before any pack is
    applied, so it cannot read the weapon table itself.
    """
    most_shots = {key: t.REPEAT_SHOTS[weapon.repeat] for key, weapon in weapons.items()}

    def clean(values: dict[str, Any]) -> dict[str, Any]:
        most = most_shots.get(values["weapon"], 1)
        if values["shots"] > most:
            raise ValidationError({"shots": f"this weapon fires at most {most} shot(s) a turn"})
        return values

    return clean


def build_params(tables: t.RencounterTables) -> Schema:
    """The fire check's parameters, offering the snapshot's weapons, shields and cover."""
    weapons = tables.missile_weapons
    return Schema(_fields(tables), clean=_shots_rule(weapons))


def _fields(tables: t.RencounterTables) -> tuple[Field, ...]:
    return (
        Field("skill", "int", "Fire skill", required=True, min=2, max=12),
        Field(
            "modifier",
            "int",
            "To-hit modifiers",
            0,
            -20,
            12,
            help="Sum of the other to-hit modifiers (aim, movement, snap fire, wounds ...)",
        ),
        Field(
            "damage_modifier",
            "int",
            "Damage modifier",
            0,
            -12,
            12,
            help="Added to the damage roll on top of the weapon's own modifier",
        ),
        Field(
            "weapon",
            "choice",
            "Weapon",
            NO_WEAPON,
            choices=(
                (NO_WEAPON, "No weapon modifiers"),
                *((k, w.name) for k, w in tables.missile_weapons.items()),
            ),
        ),
        Field(
            "range",
            "choice",
            "Range band",
            "short",
            choices=tuple((b, b.replace("_", " ")) for b in t.RANGE_BANDS),
        ),
        Field(
            "shots",
            "int",
            "Shots this turn",
            1,
            1,
            12,
            help="Repeaters: each shot after the first is at the sheet's extra-shot penalty",
        ),
        Field("target_armour", "int", "Target armour", 0, 0, 4),
        Field(
            "target_shield",
            "choice",
            "Target shield",
            "none",
            choices=tuple((k, label) for k, (label, _) in tables.shields.items()),
        ),
        Field(
            "cover",
            "choice",
            "Target cover",
            "none",
            choices=tuple((k, label) for k, (_, _, label) in tables.cover.items()),
        ),
        Field("locations", "bool", "Roll hit locations", False),
    )


PARAMS = build_params(t.BASE)


@dataclass(frozen=True)
class FirePlan:
    """Everything a fire check needs that does not depend on the dice."""

    needs: tuple[int, ...]
    damage: int
    solid_cover: int
    locations: bool
    #: Any cover at all, solid or not: a minor wound there makes the man flinch (l.321 says
    #: "figures in cover"); only a miss needs *solid* cover to cause a duck back.
    in_cover: bool = False
    #: The snapshot's damage table (read once with the plan, not for every hit).
    damage_table: DamageTable = ()


_KEY = itemgetter(*PARAMS.names)


def _params_key(params: Mapping[str, Any]) -> tuple[Any, ...]:
    # The validated params, in schema order, as the cache key of the plan and the odds.
    return tuple(_KEY(params))


@lru_cache(maxsize=4096)
def plan(tables: t.RencounterTables, key: tuple[Any, ...]) -> FirePlan:
    """Work out the need per shot, the damage modifier and the cover for these params."""
    p = dict(zip(PARAMS.names, key, strict=True))
    weapon = tables.missile_weapons.get(p["weapon"])
    cover, solid, _ = tables.cover[p["cover"]]
    base = p["skill"] + p["modifier"] + tables.range_to_hit[p["range"]] + cover
    base += _weapon_to_hit(tables, weapon, p)
    # Each shot after the first in a turn: the sheet's row (a club may change it).
    extra_shot = t.rule_modifier(tables.fire_modifiers, t.FIRE_RULES, "extra_shot")
    needs = tuple(base + shot * extra_shot for shot in range(p["shots"]))
    return FirePlan(
        needs,
        _damage_modifier(weapon, p),
        cover if solid else 0,
        p["locations"],
        in_cover=p["cover"] != "none",
        damage_table=tables.damage_table,
    )


def _weapon_to_hit(
    tables: t.RencounterTables, weapon: t.MissileWeapon | None, p: Mapping[str, Any]
) -> int:
    if weapon is None:
        return 0
    modifier = t.SHOTGUN_TO_HIT.get(p["range"], 0) if weapon.damage is None else 0
    if weapon.kind in t.ARMOUR_KINDS:
        modifier += -p["target_armour"] + tables.shields[p["target_shield"]][1]
    elif weapon.kind == "low_velocity" and p["target_armour"] >= t.HEAVY_ARMOUR_FROM:
        modifier += t.LOW_VELOCITY_HEAVY_ARMOUR
    return modifier


def _damage_modifier(weapon: t.MissileWeapon | None, p: Mapping[str, Any]) -> int:
    modifier = int(p["damage_modifier"])
    if weapon is None:
        return modifier
    if weapon.damage is None:  # shotguns and blunderbusses: damage set by range band
        return modifier + t.SHOTGUN_DAMAGE[p["range"]]
    extreme = t.EXTREME_RANGE_DAMAGE if p["range"] == "extreme" else 0
    return modifier + weapon.damage + extreme


class Shot(NamedTuple):
    """What one shot came to: its damage result ("miss" for none), where it landed (with hit
    locations), and whether it makes the target flinch (a duck back test)."""

    result: str
    location: str | None
    flinch: bool


def prepare(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Fire each shot in turn and add up the wound points of every hit, each shot's dice
    looked up on tables worked out once for these parameters, and what a volley of those
    shots comes to worked out once per volley that comes up."""
    fire = plan(tables, _params_key(params))
    needs = fire.needs
    spent = fired(tables, params["weapon"])
    if len(needs) == 1:  # the usual shot: what it comes to is read with its dice
        return _lone_shot(fire, needs[0], spent)
    shot_rolls = tuple(_shot(fire, need, _as_fired, Shot) for need in needs)
    volleys: dict[tuple[Shot, ...], _Volley] = {}

    def volley(dice: Dice) -> Outcome:
        rolled = tuple([roll(dice) for roll in shot_rolls])
        found = volleys.get(rolled)
        if found is None:
            if len(volleys) >= _VOLLEYS_KEPT:
                volleys.clear()
            found = volleys[rolled] = _volley(rolled, spent)
        key, points, flinch, effects = found
        entries = [
            {"need": need, "result": shot.result, "location": shot.location}
            for need, shot in zip(needs, rolled, strict=True)
        ]
        details = {"shots": entries, "wound_points": points, "duck_back_due": flinch}
        return _new_outcome(Outcome, (key, details, effects))

    return volley


def _as_fired(shot: Shot) -> Shot:
    return shot


class _Lone(NamedTuple):
    """A lone shot and what it comes to (the volley of that one shot)."""

    result: str
    location: str | None
    key: str
    points: int
    flinch: bool
    effects: tuple[Effect, ...]


def _lone_shot(fire: FirePlan, need: int, spent: tuple[Effect, ...]) -> Roller:
    def summed(shot: Shot) -> _Lone:
        return _Lone(shot.result, shot.location, *_volley((shot,), spent))

    roll = _shot(fire, need, summed, _Lone)

    def lone_shot(dice: Dice) -> Outcome:
        result, location, key, points, flinch, effects = roll(dice)
        entry = {"need": need, "result": result, "location": location}
        details = {"shots": [entry], "wound_points": points, "duck_back_due": flinch}
        return _new_outcome(Outcome, (key, details, effects))

    return lone_shot


class _Volley(NamedTuple):
    """What a volley's shots come to: the outcome, wound points, a flinch, the effects."""

    key: str
    points: int
    flinch: bool
    effects: tuple[Effect, ...]


def _volley(shots: tuple[Shot, ...], spent: tuple[Effect, ...]) -> _Volley:
    points, hits, dead, flinch = 0, 0, False, False
    for result, _, shot_flinch in shots:
        hits += result != "miss"
        dead = dead or result == "dead"
        flinch = flinch or shot_flinch
        points += POINTS.get(result, 0)
    key = "miss" if not hits else ("dead" if dead else level_of_points(points))
    return _Volley(key, points, flinch, _effects(key, points) + spent)


#: Volleys a prepared fire check remembers: a dozen shots with locations could come up in more
#: ways than are worth keeping.
_VOLLEYS_KEPT = 1024
_new_outcome = tuple.__new__


_WOUNDED = frozenset({"minor", "serious", "crippling"})
#: What a shot's faces are made into: the Shot itself, or a lone shot with its volley.
Fired = TypeVar("Fired")


def _shot(
    fire: FirePlan, need: int, made: Callable[[Shot], Fired], final: type[Fired]
) -> Callable[[Dice], Fired]:
    """One shot's roll at `need`: to hit, then damage (and location) on a hit. Each way the
    shot can end is `made` into a `final` value once, when it first comes up."""
    solid = fire.solid_cover
    faces = partial(face_steps, final=final)

    def missed(natural: int | None) -> Fired:
        # A miss that only solid cover caused makes the target flinch (duck back test);
        # a natural 12 misses whatever the cover.
        margin = need if natural is None else need - natural
        flinch = bool(solid) and natural != t.FIRE_AUTO_MISS and margin >= solid
        return made(Shot("miss", None, flinch))

    def landed(margin: int) -> Callable[[Dice], Fired]:
        good = t.FIRE_GOOD_HIT_DAMAGE if margin >= t.GOOD_HIT_MARGIN else 0

        def damage(face: int) -> Fired | Callable[[Dice], Fired]:
            result = damage_result(face + fire.damage + good, fire.damage_table)
            # A wound that does not knock a man in cover (any cover) over makes him flinch too.
            flinch = fire.in_cover and result == "minor"
            if fire.locations and result in _WOUNDED:
                return faces(
                    D6,
                    "hit location",
                    lambda loc: made(Shot(result, t.HIT_LOCATIONS[loc], flinch)),
                )
            return made(Shot(result, None, flinch))

        return faces(D12, "damage", damage)

    step = shot_roll(need, landed, missed, faces)
    if isinstance(step, final):  # no die can hit: the miss is certain and rolls nothing
        return lambda dice: step
    return step


#: A single-shot weapon after its shot: unloaded until the reload check has run its turns.
_UNLOADED = (
    Effect("actor", "loaded", "set", False, "fired"),
    Effect("actor", "reload_progress", "set", 0),
)


def fired(tables: t.RencounterTables, weapon_key: str) -> tuple[Effect, ...]:
    """The firer's state after the shot: a weapon holding one shot is empty (a magazine, or
    no weapon named, says nothing of what is left)."""
    weapon = tables.missile_weapons.get(weapon_key)
    return _UNLOADED if weapon is not None and weapon.shots == "1" else ()


@lru_cache(maxsize=64)
def _effects(key: str, points: int) -> tuple[Effect, ...]:
    if key == "dead":
        return (Effect("target", "status", "set", "dead", "struck dead"),)
    if not points:
        return ()
    effects = [
        Effect("target", "wounds", "add", points, f"{key} wound"),
        Effect("target", "status", "set", "wounded"),
    ]
    if points >= POINTS["serious"]:
        effects.append(Effect("target", "down", "set", True, "knocked down by the wound"))
    return tuple(effects)


def odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> Dist:
    """Exact distribution over the fire outcomes."""
    return dict(_odds(tables, _params_key(params)))


@lru_cache(maxsize=4096)
def _odds(tables: t.RencounterTables, key: tuple[Any, ...]) -> tuple[tuple[str, Fraction], ...]:
    fire = plan(tables, key)
    # State: (any hit, wound points so far) with "dead" absorbing; points cap at death. Each
    # shot is counted in whole ways out of SHOT_WAYS, so the volley is out of SHOT_WAYS**shots.
    states: dict[tuple[bool, int], int] = {(False, 0): 1}
    for need in fire.needs:
        states = _next_states(states, _shot_ways(need, fire.damage, fire.damage_table))
    counts = dict.fromkeys(FIRE_OUTCOMES, 0)
    for (hit, points), ways in states.items():
        counts["miss" if not hit else level_of_points(points)] += ways
    return tuple(counted(counts, SHOT_WAYS ** len(fire.needs)).items())


#: One shot's ways: the to-hit d12 and its confirming d12 (144), then the damage d12.
SHOT_WAYS = 144 * 12


def _shot_ways(need: int, damage: int, table: DamageTable) -> dict[int | None, int]:
    """Ways out of SHOT_WAYS of each shot result as wound points (None = miss, 6 = dead)."""
    plain, good = shot_hit_ways(need)
    shot: dict[int | None, int] = {None: SHOT_WAYS - 12 * (plain + good)}
    for ways, modifier in ((plain, damage), (good, damage + t.FIRE_GOOD_HIT_DAMAGE)):
        if not ways:
            continue
        for face in range(1, 13):
            result = damage_result(face + modifier, table)
            points = t.DEATH_POINTS if result == "dead" else POINTS[result]
            shot[points] = shot.get(points, 0) + ways
    return shot


def _next_states(
    states: dict[tuple[bool, int], int], shot: dict[int | None, int]
) -> dict[tuple[bool, int], int]:
    after: dict[tuple[bool, int], int] = {}
    for (hit, points), ways in states.items():
        for extra, more in shot.items():
            state = (hit, points) if extra is None else (True, min(points + extra, t.DEATH_POINTS))
            after[state] = after.get(state, 0) + ways * more
    return after


# --- reloading ------------------------------------------------------------------------------

RELOAD_OUTCOMES = ("reloading", "loaded")


def build_reload_params(tables: t.RencounterTables) -> Schema:
    """The reload check's parameters, offering the snapshot's single-shot weapons."""
    single = [(k, w.name) for k, w in tables.missile_weapons.items() if w.shots == "1"]
    return Schema(
        (
            Field("weapon", "choice", "Weapon", single[0][0], choices=tuple(single)),
            Field(
                "progress",
                "int",
                "Turns already spent reloading",
                0,
                0,
                20,
                help="The figure's battle state keeps it: each reload check adds a turn",
            ),
        )
    )


def reload_turns(tables: t.RencounterTables, weapon_key: str) -> int:
    """Whole turns of reloading the weapon takes (half turns round up: one action each)."""
    reload = tables.missile_weapons[weapon_key].reload
    return max(1, int(-(-reload // 1)))


def prepare_reload(tables: t.RencounterTables, params: Mapping[str, Any]) -> Roller:
    """Spend a turn reloading: loaded once the weapon's reload time is spent, else say how
    many turns are left. No dice: the answer is worked out once for these parameters."""
    turns, spent = reload_turns(tables, params["weapon"]), params["progress"] + 1
    if spent >= turns:
        effects = (
            Effect("actor", "loaded", "set", True, "reloaded"),
            Effect("actor", "reload_progress", "set", 0),
            Effect("actor", "reloading", "set", 0),
        )
        return no_dice(Outcome("loaded", {"turns": turns, "turns_left": 0}, effects))
    left = turns - spent
    effects = (
        Effect("actor", "loaded", "set", False),
        Effect("actor", "reload_progress", "set", spent),
        Effect("actor", "reloading", "set", left),
    )
    return no_dice(Outcome("reloading", {"turns": turns, "turns_left": left}, effects))


def reload_odds(tables: t.RencounterTables, params: Mapping[str, Any]) -> dict[str, Fraction]:
    done = params["progress"] + 1 >= reload_turns(tables, params["weapon"])
    return {"loaded" if done else "reloading": Fraction(1)}
