"""Checks of the d12 skirmish game: shooting, misfires, wounding, hand to hand, morale.

Every function that reads an editable table takes the tables snapshot (`D12Tables`) as its
first argument; `build_checks(tables)` binds it into each check's resolver and odds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import Any, Literal

from rules.checks import (
    JUDGED,
    Check,
    Derived,
    Effect,
    FromActor,
    FromEquipment,
    FromState,
    FromTarget,
    Outcome,
    Preparer,
    Roller,
    Source,
    Step,
    by_face,
    counted,
    declare,
    no_dice,
    odds_key,
    resolved_by,
)
from rules.dice import D12
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.d12_skirmish import tables as t
from rules.systems.d12_skirmish.tables import (
    ABILITY_MORALE,
    ABILITY_SHOOTING,
    CLOSE_RANGE_WOUND_BONUS,
    COMBAT_EXPERT,
    COVER_REROLL_BAND,
    COVER_REROLL_PASS,
    CRAWLING_MODIFIER,
    EXPERT_SKIRMISHER,
    FAILED_TESTS_TO_REMOVE,
    H2H_CAVALRY,
    H2H_CHARGED,
    H2H_COVER,
    H2H_DEADLY_DIFFERENCE,
    H2H_DEADLY_ON,
    H2H_EFFECTS,
    H2H_KILLS_FROM,
    H2H_PER_ATTACKER,
    LOADING,
    MAX_OBSTACLES,
    MISFIRE_FACE,
    MORALE_CAVALRY_CHARGE,
    MORALE_CHARGED_UNLOADED,
    MORALE_IN_COVER,
    MORALE_OFFICER_IN_SIGHT,
    MORALE_OFFICER_KILLED,
    MORALE_TABLE,
    MOUNTS,
    OBSTACLE_MODIFIER,
    OFFICER_LOSS_ON,
    PER_WOUND,
    RUNNING_MODIFIER,
    THROWN_ON,
    TOUGH_WOUND_MODIFIER,
    WOUNDS_BY_RESULT,
    band,
)

FACES = D12.faces
MAX_WOUNDS_TAKEN = 5
Classify = Callable[[Mapping[str, Any], tuple[int, ...]], str]
Tables = t.D12Tables


def _enumerate(
    params: Mapping[str, Any], dice_count: int, classify: Classify
) -> dict[str, Fraction]:
    """Exact odds over every sequence of `dice_count` d12s; unused trailing dice just repeat.

    The dice are dealt on demand: a sequence is extended only when `classify` reads a die it
    was not given (a second die is rolled only for a cover re-roll or a throw from the horse),
    and each outcome is counted in whole sequences, so a one-die answer costs 12 calls, not 144.
    A plain tuple is dealt: reading past its end raises IndexError, which deals the next die;
    with every die dealt, an IndexError is a real error and is raised.
    """
    total = 12**dice_count
    counts: dict[str, int] = {}
    # Every check reads its first die, so dealing starts there.
    pending: list[tuple[tuple[int, ...], int]] = [((face,), total // 12) for face in FACES]
    while pending:
        faces, ways = pending.pop()
        try:
            key = classify(params, faces)
        except IndexError:
            if len(faces) == dice_count:
                raise
            pending.extend(((*faces, face), ways // 12) for face in FACES)
            continue
        counts[key] = counts.get(key, 0) + ways
    return counted(counts, total)


def _cached(
    dice_count: int, classify: Classify
) -> Callable[[Mapping[str, Any]], dict[str, Fraction]]:
    """Exact odds of `classify` (bound to a snapshot), cached: one cache per check built."""

    @lru_cache(maxsize=4096)
    def by_items(items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
        return _enumerate(dict(items), dice_count, classify)

    def odds(params: Mapping[str, Any]) -> dict[str, Fraction]:
        return dict(by_items(odds_key(params)))

    return odds


def _troop_field(tables: Tables, name: str = "troop", label: str = "Troop type") -> Field:
    return Field(name, "choice", label, "regular", choices=tables.TROOP_TYPES)


def _modifier_field(name: str = "modifier", label: str = "Other modifiers") -> Field:
    return Field(name, "int", label, 0, min=-12, max=12)


def _wounds_field(name: str = "wounds", label: str = "Wounds taken") -> Field:
    return Field(name, "int", label, 0, min=0, max=MAX_WOUNDS_TAKEN)


# --- shooting ----------------------------------------------------------------------------

SHOOT_OUTCOMES = ("hit", "miss", "misfire")


def _shoot_params(tables: Tables) -> Schema:
    return Schema((_troop_field(tables), _modifier_field()))


def shot_result(face: int, modifier: int, hit_on: int) -> str:
    """Return hit, miss or misfire for a natural `face` and the sum of all modifiers."""
    if face == MISFIRE_FACE:
        return "misfire"
    return "hit" if face + modifier >= hit_on else "miss"


def _shoot_key(tables: Tables, params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    modifier = tables.TROOP_MODIFIER[params["troop"]] + params["modifier"]
    return shot_result(faces[0], modifier, tables.HIT_ON)


def _shot(face: int, modifier: int, muzzle: bool, hit_on: int) -> Outcome:
    key = shot_result(face, modifier, hit_on)
    effects = (Effect("actor", "loaded", "set", False, "fired"),) if muzzle else ()
    return Outcome(key, {"roll": face, "modifier": modifier, "total": face + modifier}, effects)


_RELOADED = (Effect("actor", "loaded", "set", True, "reloaded"),)


def prepare_reload(params: Mapping[str, Any]) -> Roller:
    """A turn spent reloading: the muzzle-loader is loaded again. No dice."""
    return no_dice(Outcome("loaded", {}, _RELOADED))


def prepare_shoot(tables: Tables, params: Mapping[str, Any]) -> Roller:
    """The shot for every face of the to-hit die, worked out once for these parameters."""
    modifier = tables.TROOP_MODIFIER[params["troop"]] + params["modifier"]
    return by_face(D12, "to hit", lambda face: _shot(face, modifier, False, tables.HIT_ON))


#: The fire check's firearm when none is named: the range band is given, not measured.
ANY_FIREARM = "any"
#: The longest shot a `distance` may name (inches); a firearm's own ranges limit it further.
MAX_DISTANCE = 120
#: The fire check's distance when it is not measured: the range band is given instead.
NOT_MEASURED = 0


def firearm_range(tables: Tables, firearm: str, distance: int) -> str | None:
    """The range band a shot at `distance` inches falls in for `firearm`, None beyond it."""
    reaches = tables.FIREARMS[firearm]
    for range_key, reach in zip(("close", "medium", "extreme"), reaches, strict=True):
        if reach is not None and distance <= reach:
            return range_key
    return None


def _measured_range(tables: Tables, values: dict[str, Any]) -> dict[str, Any]:
    """Check a named firearm against its range bands; a distance picks the band."""
    firearm, distance = values["firearm"], values["distance"]
    if firearm == ANY_FIREARM:
        raise ValidationError({"distance": "name the firearm to shoot at a distance"})
    name = tables.FIREARM_NAMES[firearm]
    if distance == NOT_MEASURED:
        bands = dict(zip(("close", "medium", "extreme"), tables.FIREARMS[firearm], strict=True))
        if bands[values["range"]] is None:
            raise ValidationError({"range": f"the {name} has no {values['range']} range"})
        return values
    band_key = firearm_range(tables, firearm, distance)
    if band_key is None:
        reach = max(r for r in tables.FIREARMS[firearm] if r is not None)
        raise ValidationError({"distance": f"out of range: the {name} reaches {reach} inches"})
    return {**values, "range": band_key}


def _fire_clean(tables: Tables) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The fire check's cross-field step, reading the firearms of `tables`."""

    def clean(values: dict[str, Any]) -> dict[str, Any]:
        if values["firearm"] == ANY_FIREARM and values["distance"] == NOT_MEASURED:
            return values  # the usual shot: a range band given, no table to read
        return _measured_range(tables, values)

    return clean


def _fire_params(tables: Tables) -> Schema:
    firearms = tuple(tables.FIREARM_NAMES.items())
    return Schema(
        (
            _troop_field(tables),
            Field(
                "shooting_expert",
                "choice",
                "Expertise",
                "all",
                choices=(("all", "Both"), ("shooting", "Shooting"), ("combat", "Combat (-1)")),
            ),
            Field(
                "ability",
                "choice",
                "Shooter's ability",
                "none",
                choices=(("none", "None"), ("dead_eye", "Dead Eye"), ("twitchy", "Twitchy arm")),
            ),
            _wounds_field("wounds", "Shooter's wounds"),
            Field("range", "choice", "Range", "close", choices=tables.RANGES),
            Field("cover", "choice", "Target's cover", "none", choices=tables.COVER),
            Field("obstacles", "int", "Obstacles shot over", 0, min=0, max=MAX_OBSTACLES),
            Field("crawling", "bool", "Target crawling", False),
            Field("running", "bool", "Target running", False),
            Field("expert_skirmisher", "bool", "Target is an Expert Skirmisher", False),
            Field("loading", "choice", "Shooter's weapon", "muzzle", choices=LOADING),
            Field(
                "firearm",
                "choice",
                "Firearm",
                ANY_FIREARM,
                choices=((ANY_FIREARM, "Not named (range band given)"), *firearms),
                help="Named, the range must be one of its bands",
            ),
            Field(
                "distance",
                "int",
                "Distance (inches)",
                NOT_MEASURED,
                min=0,
                max=MAX_DISTANCE,
                help="With a firearm named, its range bands give the range; 0: not measured",
            ),
            _modifier_field(),
        ),
        clean=_fire_clean(tables),
    )


def fire_modifier(params: Mapping[str, Any], tables: Tables) -> int:
    """Sum every to-hit modifier of a fully described shot."""
    off_field = params["shooting_expert"] == "combat"
    return int(
        tables.TROOP_MODIFIER[params["troop"]]
        - off_field
        + ABILITY_SHOOTING.get(params["ability"], 0)
        + PER_WOUND * params["wounds"]
        + tables.RANGE_MODIFIER[params["range"]]
        + tables.COVER_MODIFIER[params["cover"]]
        + OBSTACLE_MODIFIER * params["obstacles"]
        + CRAWLING_MODIFIER * params["crawling"]
        + RUNNING_MODIFIER * params["running"]
        + EXPERT_SKIRMISHER * params["expert_skirmisher"]
        + params["modifier"]
    )


def _must_reload(params: Mapping[str, Any], tables: Tables) -> bool:
    """A muzzle-loader reloads after a shot, unless its firearm fires every turn regardless."""
    if params["loading"] != "muzzle":
        return False
    firearm = params["firearm"]
    return firearm == ANY_FIREARM or firearm not in tables.FIREARMS_EVERY_TURN


def prepare_fire(tables: Tables, params: Mapping[str, Any]) -> Roller:
    """The shot for every face of the to-hit die, its modifiers summed once."""
    modifier, muzzle = fire_modifier(params, tables), _must_reload(params, tables)
    return by_face(D12, "to hit", lambda face: _shot(face, modifier, muzzle, tables.HIT_ON))


def _fire_key(tables: Tables, params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    return shot_result(faces[0], fire_modifier(params, tables), tables.HIT_ON)


# --- misfire -----------------------------------------------------------------------------

MISFIRE_OUTCOMES = ("explodes", "out_of_ammo", "jammed", "bad_powder")
MISFIRE_EFFECTS = {
    "explodes": (Effect("actor", "weapon", "set", "exploded", "roll a wound on the firer"),),
    "out_of_ammo": (Effect("actor", "weapon", "set", "out_of_ammo"),),
    "jammed": (Effect("actor", "loaded", "set", False, "reload next turn"),),
    "bad_powder": (Effect("actor", "loaded", "set", True, "may fire again next turn"),),
}


def _misfire_key(tables: Tables, params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    return band(tables.MISFIRE_TABLE, faces[0])


def prepare_misfire(tables: Tables, params: Mapping[str, Any]) -> Roller:
    def misfire(face: int) -> Outcome:
        key = band(tables.MISFIRE_TABLE, face)
        return Outcome(key, {"roll": face}, MISFIRE_EFFECTS[key])

    return by_face(D12, "misfire", misfire)


# --- wounding ----------------------------------------------------------------------------

WOUND_OUTCOMES = ("dead", "two_wounds", "one_wound", "pinned")
WOUND_PARAMS = Schema(
    (
        Field("mount", "choice", "Target", "foot", choices=MOUNTS),
        Field("close_range", "bool", "Fired at close range", False),
        Field("tough", "bool", "Target is Tough as old boots", False),
        _modifier_field(),
    )
)


def wound_result(params: Mapping[str, Any], face: int, tables: Tables) -> tuple[str, int, bool]:
    """Return (table result, score, thrown from the horse) for a natural `face`."""
    modifier = (
        CLOSE_RANGE_WOUND_BONUS * params["close_range"]
        + TOUGH_WOUND_MODIFIER * params["tough"]
        + params["modifier"]
    )
    score = 12 if face == 12 else min(max(face + modifier, 1), 12)
    if params["mount"] != "cavalry":
        return band(tables.FOOT_WOUNDS, score), score, False
    thrown = any(low <= score <= high for low, high in tables.THROWN)
    return band(tables.CAVALRY_WOUNDS, score), score, thrown


def thrown_result(result: str, score: int, thrown_face: int, tables: Tables) -> str:
    """Return the result after a thrown rider's d12 (THROWN_ON+: what the table says)."""
    if thrown_face < THROWN_ON:
        return result
    thrown = tables.THROWN
    return next(v for (low, high), v in thrown.items() if low <= score <= high)


def _wound_key(tables: Tables, params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    result, score, thrown = wound_result(params, faces[0], tables)
    return thrown_result(result, score, faces[1], tables) if thrown else result


def _wound_effects(key: str, thrown: bool) -> tuple[Effect, ...]:
    effects = [Effect("target", "pinned", "set", True, "no action next turn")]
    if WOUNDS_BY_RESULT[key]:
        effects.append(Effect("target", "wounds", "add", WOUNDS_BY_RESULT[key]))
    if key == "dead":
        effects.append(Effect("target", "status", "set", "dead"))
    if thrown:
        effects.append(Effect("target", "mounted", "set", False, "thrown from the horse"))
    return tuple(effects)


def prepare_wound(tables: Tables, params: Mapping[str, Any]) -> Roller:
    """The wound for every face (and a thrown rider's face), worked out once each."""

    def wound(face: int) -> Step:
        result, score, thrown = wound_result(params, face, tables)
        details: dict[str, Any] = {"roll": face, "score": score, "thrown": thrown}
        if not thrown:
            return Outcome(result, details, _wound_effects(result, thrown))

        def thrown_from_horse(thrown_face: int) -> Outcome:
            key = thrown_result(result, score, thrown_face, tables)
            return Outcome(
                key, {**details, "thrown_roll": thrown_face}, _wound_effects(key, thrown)
            )

        return by_face(D12, "thrown from horse", thrown_from_horse)

    return by_face(D12, "wound", wound)


# --- hand to hand ------------------------------------------------------------------------

H2H_OUTCOMES = (
    "inflicts_1",
    "inflicts_2",
    "kills",
    "blocks",
    "draw",
    "suffers_1",
    "suffers_2",
    "killed",
)


def _side_fields(tables: Tables, prefix: str, whose: str) -> tuple[Field, ...]:
    weapons = (("none", "None"), *tables.MELEE_NAMES.items())
    return (
        _troop_field(tables, f"{prefix}troop", f"{whose} troop type"),
        Field(
            f"{prefix}combat_expertise",
            "choice",
            f"{whose} expertise",
            "all",
            choices=(("all", "Both"), ("combat", "Combat"), ("shooting", "Shooting (-1)")),
        ),
        Field(f"{prefix}weapon", "choice", f"{whose} weapon", "none", choices=weapons),
        _wounds_field(f"{prefix}wounds", f"{whose} wounds"),
        Field(f"{prefix}charged", "bool", f"{whose} side charged", False),
        Field(f"{prefix}cavalry", "bool", f"{whose} figure is cavalry", False),
        Field(f"{prefix}in_cover", "bool", f"{whose} figure defends cover", False),
        Field(f"{prefix}extra_attackers", "int", f"{whose} additional attackers", 0, min=0, max=3),
        Field(f"{prefix}combat_expert", "bool", f"{whose} figure is a Combat Expert", False),
        _modifier_field(f"{prefix}modifier", f"{whose} other modifiers"),
    )


def _h2h_params(tables: Tables) -> Schema:
    return Schema(
        (
            *_side_fields(tables, "", "Our"),
            *_side_fields(tables, "enemy_", "Enemy"),
            Field("defend_only", "bool", "We only defend (fighting another attacker)", False),
        )
    )


_SIDE_FIELDS = (
    "troop",
    "combat_expertise",
    "weapon",
    "wounds",
    "charged",
    "cavalry",
    "in_cover",
    "extra_attackers",
    "combat_expert",
    "modifier",
)
#: One side's hand-to-hand fields in the order above, read in one C call per side (a hot path).
_SIDE_VALUES = {
    prefix: itemgetter(*(prefix + name for name in _SIDE_FIELDS)) for prefix in ("", "enemy_")
}


def h2h_modifier(params: Mapping[str, Any], prefix: str, tables: Tables) -> int:
    """Sum one side's hand-to-hand modifiers (prefix "" for us, "enemy_" for them)."""
    troop, expertise, weapon, wounds, charged, cavalry, cover, extra, expert, modifier = (
        _SIDE_VALUES[prefix](params)
    )
    return int(
        tables.TROOP_MODIFIER[troop]
        - (expertise == "shooting")
        + tables.MELEE_WEAPONS.get(weapon, 0)
        + PER_WOUND * wounds
        + H2H_CHARGED * charged
        + H2H_CAVALRY * cavalry
        + H2H_COVER * cover
        + H2H_PER_ATTACKER * extra
        + COMBAT_EXPERT * expert
        + modifier
    )


def wounds_for_difference(difference: int) -> int | None:
    """Return the wounds a win by `difference` inflicts, None when it kills outright."""
    if difference >= H2H_KILLS_FROM:
        return None
    return next(w for low, high, w in H2H_EFFECTS if low <= difference <= high)


@cache
def h2h_outcome(lead: int, defend_only: bool, deadly_roll: int) -> str:
    """Return the outcome of our total beating theirs by `lead` (negative: they win).

    `deadly_roll` is the d12 rolled on a difference of exactly 5 (0 if none). The outcome
    depends on these three alone, so each is worked out once and then looked up.
    """
    if lead == 0:
        return "draw"
    if lead > 0 and defend_only:
        return "blocks"
    difference = abs(lead)
    wounds = wounds_for_difference(difference)
    deadly = difference == H2H_DEADLY_DIFFERENCE and deadly_roll >= H2H_DEADLY_ON
    if lead > 0:
        return "kills" if wounds is None or deadly else f"inflicts_{wounds}"
    return "killed" if wounds is None or deadly else f"suffers_{wounds}"


def _h2h_effects(key: str) -> tuple[Effect, ...]:
    who: Any = "target" if key in ("inflicts_1", "inflicts_2", "kills") else "actor"
    if key in ("kills", "killed"):
        return (Effect(who, "status", "set", "dead"),)
    if key[-1].isdigit():
        return (
            Effect(who, "wounds", "add", int(key[-1])),
            Effect(who, "pinned", "set", True, "wounded"),
        )
    return ()


#: Built once: effects are immutable, so every fight with the same outcome shares them.
H2H_EFFECTS_BY_OUTCOME = {key: _h2h_effects(key) for key in H2H_OUTCOMES}


@lru_cache(maxsize=4096)
def _h2h_odds_cached(tables: Tables, items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
    params = dict(items)
    modifiers = h2h_modifier(params, "", tables) - h2h_modifier(params, "enemy_", tables)
    sides = len(FACES)
    deadly = sum(1 for face in FACES if face >= H2H_DEADLY_ON)
    counts: dict[str, int] = {}
    # Counted in whole ways out of sides**3. Two d12s (faces 1-12) differ by d in
    # `sides - |d|` ways, so each difference is classified once, not each pair; only a
    # difference of exactly 5 reads the third die, so its two results are weighed directly.
    for difference in range(1 - sides, sides):
        pairs = sides - abs(difference)
        for third, ways in ((H2H_DEADLY_ON, deadly), (1, sides - deadly)):
            key = h2h_outcome(difference + modifiers, params["defend_only"], third)
            counts[key] = counts.get(key, 0) + pairs * ways
    return counted(counts, sides**3)


def h2h_odds(tables: Tables, params: Mapping[str, Any]) -> dict[str, Fraction]:
    return dict(_h2h_odds_cached(tables, odds_key(params)))


def prepare_h2h(tables: Tables, params: Mapping[str, Any]) -> Roller:
    """Both sides' d12s (and the deadly roll on a difference of 5), each side's modifiers
    summed once for these parameters and each pair of faces read once."""
    ours_modifier = h2h_modifier(params, "", tables)
    theirs_modifier = h2h_modifier(params, "enemy_", tables)
    defend_only = params["defend_only"]

    def fight(ours: int, theirs: int) -> Step:
        ours_total, theirs_total = ours + ours_modifier, theirs + theirs_modifier
        lead = ours_total - theirs_total
        details = {
            "our_roll": ours,
            "enemy_roll": theirs,
            "our_total": ours_total,
            "enemy_total": theirs_total,
        }

        def decided(deadly: int) -> Outcome:
            key = h2h_outcome(lead, defend_only, deadly)
            return Outcome(
                key, {**details, "deadly_roll": deadly or None}, H2H_EFFECTS_BY_OUTCOME[key]
            )

        if abs(lead) == H2H_DEADLY_DIFFERENCE and not (defend_only and lead > 0):
            return by_face(D12, "won by 5: dead on 6+", decided)
        return decided(0)

    return by_face(
        D12,
        "our hand to hand",
        lambda ours: by_face(D12, "enemy hand to hand", partial(fight, ours)),
    )


# --- morale ------------------------------------------------------------------------------

MORALE_OUTCOMES = ("continue", "pinned", "retreat", "panic", "surrender", "removed")


def _morale_params(tables: Tables) -> Schema:
    return Schema(
        (
            _troop_field(tables),
            _wounds_field(),
            Field(
                "ability",
                "choice",
                "Ability",
                "none",
                choices=(("none", "None"), ("loyal", "Loyal to the cause"), ("yella", "Yella")),
            ),
            Field("charged_by_cavalry", "bool", "Charged by cavalry", False),
            Field("charged_unloaded", "bool", "Charged with weapon unloaded", False),
            Field("officer_killed", "bool", "Officer / standard killed", False),
            Field("in_cover", "bool", "In cover", False),
            Field("officer_in_sight", "bool", "Officer / standard in sight", False),
            Field(
                "in_combat",
                "bool",
                "In hand to hand",
                False,
                help="Panic and retreat become surrender",
            ),
            Field(
                "failed_last",
                "bool",
                "Failed the previous test",
                False,
                help=f"{FAILED_TESTS_TO_REMOVE} failed tests in a row remove the figure",
            ),
            _modifier_field(),
        )
    )


def morale_modifier(params: Mapping[str, Any], tables: Tables) -> int:
    """Sum every morale modifier."""
    return int(
        tables.TROOP_MODIFIER[params["troop"]]
        + PER_WOUND * params["wounds"]
        + ABILITY_MORALE.get(params["ability"], 0)
        + MORALE_CAVALRY_CHARGE * params["charged_by_cavalry"]
        + MORALE_CHARGED_UNLOADED * params["charged_unloaded"]
        + MORALE_OFFICER_KILLED * params["officer_killed"]
        + MORALE_IN_COVER * params["in_cover"]
        + MORALE_OFFICER_IN_SIGHT * params["officer_in_sight"]
        + params["modifier"]
    )


def needs_cover_reroll(params: Mapping[str, Any], score: int) -> bool:
    """Return True when a figure already in cover scores in the re-roll band."""
    low, high = COVER_REROLL_BAND
    return bool(params["in_cover"]) and low <= score <= high


def _morale_key(tables: Tables, params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    score = faces[0] + morale_modifier(params, tables)
    if needs_cover_reroll(params, score):
        result = "continue" if faces[1] >= COVER_REROLL_PASS else "pinned"
    else:
        result = band(MORALE_TABLE, score)
    if result != "continue" and params["failed_last"]:
        return "removed"
    if result in ("panic", "retreat") and params["in_combat"]:
        return "surrender"
    return result


MORALE_EFFECTS = {
    "continue": (Effect("actor", "failed_morale", "set", 0),),
    "pinned": (Effect("actor", "pinned", "set", True), Effect("actor", "failed_morale", "add", 1)),
    "retreat": (
        Effect("actor", "morale", "set", "retreat"),
        Effect("actor", "failed_morale", "add", 1),
    ),
    "panic": (
        Effect("actor", "morale", "set", "panic"),
        Effect("actor", "failed_morale", "add", 1),
    ),
    "surrender": (Effect("actor", "status", "set", "captured"),),
    "removed": (Effect("actor", "status", "set", "routed", "two failed tests in a row"),),
}


def prepare_morale(tables: Tables, params: Mapping[str, Any]) -> Roller:
    """The morale test for every face (and cover re-roll), its modifiers summed once."""
    modifier = morale_modifier(params, tables)

    def morale(face: int) -> Step:
        score = face + modifier

        def tested(reroll: int) -> Outcome:
            key = _morale_key(tables, params, (face, reroll))
            details = {"roll": face, "score": score, "cover_reroll": reroll or None}
            return Outcome(key, details, MORALE_EFFECTS[key])

        if needs_cover_reroll(params, score):
            return by_face(D12, "in cover re-roll", tested)
        return tested(0)

    return by_face(D12, "morale", morale)


# --- officer loss --------------------------------------------------------------------------


def prepare_officer_loss(params: Mapping[str, Any]) -> Roller:
    def officer(face: int) -> Outcome:
        key = _officer_key(params, (face,))
        effects = (
            (Effect("actor", "officer_killed", "set", True),) if key == "officer_killed" else ()
        )
        return Outcome(key, {"roll": face}, effects)

    return by_face(D12, "officer / standard", officer)


def _officer_key(params: Mapping[str, Any], faces: tuple[int, ...]) -> str:
    return "officer_killed" if faces[0] >= OFFICER_LOSS_ON else "officer_safe"


# --- where each parameter comes from (the table reads these, never a parameter's name) -----


def _mount(stats: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Cavalry while still on the horse (a wound can throw him: battle state `mounted`)."""
    return "cavalry" if state.get("mounted", stats.get("mount") == "cavalry") else "foot"


def _on_horse(stats: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    return _mount(stats, state) == "cavalry"


def _fighter(of: Literal["actor", "target"]) -> dict[str, Source]:
    """One side of a hand to hand fight: what the figure is, carries and has suffered."""
    stat = FromActor if of == "actor" else FromTarget
    return {
        "troop": stat("troop"),
        "combat_expertise": stat("expertise"),
        "weapon": FromEquipment("weapons", of=of, otherwise="none"),
        "wounds": FromState("wounds", of=of),
        "cavalry": Derived(of, "on a horse", _on_horse),
        "combat_expert": stat("ability", equals="combat_expert"),
        **dict.fromkeys(("charged", "in_cover", "extra_attackers", "modifier"), JUDGED),
    }


SOURCES: dict[str, dict[str, Source]] = {
    "shoot": {"troop": FromActor("troop"), "modifier": JUDGED},
    "fire": {
        "troop": FromActor("troop"),
        "shooting_expert": FromActor("expertise"),
        # Only Dead-eye and Twitchy change a shot; any other ability reads "none" here.
        "ability": FromActor("ability", otherwise="none"),
        "wounds": FromState("wounds"),
        "expert_skirmisher": FromTarget("ability", equals="expert_skirmisher"),
        "loading": FromActor("loading"),
        "firearm": FromEquipment("weapons", otherwise="any"),
        **dict.fromkeys(
            ("range", "cover", "obstacles", "crawling", "running", "distance", "modifier"), JUDGED
        ),
    },
    "misfire": {},
    "wound": {
        "mount": Derived("target", "mounted", _mount),
        "tough": FromTarget("ability", equals="tough"),
        "close_range": JUDGED,
        "modifier": JUDGED,
    },
    "hand_to_hand": {
        **_fighter("actor"),
        **{f"enemy_{name}": source for name, source in _fighter("target").items()},
        "defend_only": JUDGED,
    },
    "morale": {
        "troop": FromActor("troop"),
        "wounds": FromState("wounds"),
        "ability": FromActor("ability", otherwise="none"),  # Loyal or Yella; others: none
        "failed_last": FromState("failed_morale", above=0),
        **dict.fromkeys(
            (
                "charged_by_cavalry",
                "charged_unloaded",
                "officer_killed",
                "in_cover",
                "officer_in_sight",
                "in_combat",
                "modifier",
            ),
            JUDGED,
        ),
    },
    "officer_loss": {},
}

#: Checks that concern the acting figure alone: no target to choose.
ALONE = frozenset({"misfire", "morale", "officer_loss"})


def build_checks(tables: Tables) -> dict[str, Check]:
    """Every check with the sources of its parameters declared, reading `tables`."""
    return declare(_built_checks(tables), SOURCES, ALONE)


def _check(
    name: str,
    title: str,
    params: Schema,
    outcomes: tuple[str, ...],
    preparer: Preparer,
    odds_fn: Callable[[Mapping[str, Any]], dict[str, Fraction]],
    description: str,
    dice_order: str,
    skill: str | None = None,
    friendly_fire: bool = False,
) -> Check:
    # The resolver rolls what the preparer prepares, remembering each question: one memo per
    # check built, so per tables snapshot (`_built_checks` binds the snapshot into `preparer`).
    return Check(
        name,
        title,
        params,
        outcomes,
        resolved_by(preparer),
        odds_fn,
        description,
        dice_order,
        skill=skill,
        friendly_fire=friendly_fire,
        preparer=preparer,
    )


def _built_checks(tables: Tables) -> dict[str, Check]:
    """The checks, their parameter choices and odds read from `tables`.

    Built once as written (`CHECKS`) and once per house-rules pack (`HOUSE.built_from`), so
    the pack's troop names, ranges, cover, firearms and hand-to-hand weapons are the choices
    its checks accept, and each odds function gets a cache of its own.
    """
    return {
        "shoot": _check(
            "shoot",
            "Shoot (to hit)",
            _shoot_params(tables),
            SHOOT_OUTCOMES,
            partial(prepare_shoot, tables),
            _cached(1, partial(_shoot_key, tables)),
            f"d12 + troop + modifier: {tables.HIT_ON}+ hits; a natural 1 misfires",
            "one d12: to hit",
            skill="troop",
        ),
        "fire": _check(
            "fire",
            "Shoot with every modifier",
            _fire_params(tables),
            SHOOT_OUTCOMES,
            partial(prepare_fire, tables),
            _cached(1, partial(_fire_key, tables)),
            "The same roll as shoot, with cover, obstacles, range, movement, wounds and "
            "abilities named",
            "one d12: to hit",
            skill="troop",
        ),
        "reload": _check(
            "reload",
            "Reload",
            Schema(()),
            ("loaded",),
            prepare_reload,
            lambda params: {"loaded": Fraction(1)},
            "A muzzle-loader spends a turn reloading after each shot",
            "no dice",
        ),
        "misfire": _check(
            "misfire",
            "Misfire",
            Schema(()),
            MISFIRE_OUTCOMES,
            partial(prepare_misfire, tables),
            _cached(1, partial(_misfire_key, tables)),
            "d12 on the misfire table (4 read as out of ammo)",
            "one d12: misfire",
        ),
        "wound": _check(
            "wound",
            "Wounding",
            WOUND_PARAMS,
            WOUND_OUTCOMES,
            partial(prepare_wound, tables),
            _cached(2, partial(_wound_key, tables)),
            "d12 per hit on the foot or cavalry table; close range +1; 12 kills",
            "d12 wound; then, for a thrown rider, d12 thrown",
            # A misfire that explodes: "Weapon explodes, roll on wound table" for the firer.
            friendly_fire=True,
        ),
        "hand_to_hand": _check(
            "hand_to_hand",
            "Hand to hand",
            _h2h_params(tables),
            H2H_OUTCOMES,
            partial(prepare_h2h, tables),
            partial(h2h_odds, tables),
            "Both roll d12 + modifiers; the higher wins by the difference",
            "d12 ours, d12 enemy; then, on a difference of exactly 5, d12 6+ dead",
            skill="troop",
        ),
        "morale": _check(
            "morale",
            "Morale",
            _morale_params(tables),
            MORALE_OUTCOMES,
            partial(prepare_morale, tables),
            _cached(2, partial(_morale_key, tables)),
            "d12 + modifiers: 1-4 panic, 5-6 retreat, 7+ continue; in cover a 3-4 "
            "re-rolls (6+ continue, else pinned)",
            "d12 morale; then, in cover on 3-4, d12 re-roll",
        ),
        "officer_loss": _check(
            "officer_loss",
            "Officer / standard lost",
            Schema(()),
            ("officer_killed", "officer_safe"),
            prepare_officer_loss,
            _cached(1, _officer_key),
            "Unit games: a d12 per kill; 12 kills the officer or standard",
            "one d12 per kill",
        ),
    }


CHECKS: dict[str, Check] = build_checks(t.BASE)
