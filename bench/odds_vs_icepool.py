"""Odds benchmark: every check's uncached exact odds against the same distribution in icepool.

Issue 29 asks that no check's exact odds be slower to build than the same distribution built
in icepool, cold (fresh caches) or warm, and that the median check be at least 10x faster.
This script measures both, side by side in one process, over every check of every system at a
few parameter sets (the starting figure's values, then the ranges spread low and high), and
checks that the two agree.

How icepool builds each distribution: icepool enumerates the check's own dice. The check's
resolver is replayed on a `_Replay` dice source; each time it asks for a die it has not been
given, that die becomes an icepool `Die` (one die, or each die of a `roll_many` of up to three),
a `Pool` expanded to its sorted faces (a larger `roll_many`: taken to depend on the multiset
only, which the agreement check verifies) or,
past `MAX_DEPTH` dice on one path, a lump named `_DEEPER` (open-ended rolls: Grits & Glory's aces,
Rencounter's sepsis). icepool then mixes the branches (`Die.map` with a function returning a
die), so every probability is icepool's arithmetic and every outcome is the rules' own.

A case whose tree would pass `MAX_LEAVES` resolutions (big pools, long ace chains) is built the
way an icepool user would write it instead, and the row says which (`"built"`):
- `"hands"`: Escarmouche reads a pool only through its score and its 1s, so an icepool
  `MultisetEvaluator` sorts each pool into those classes (polynomial in the pool's size) and the
  resolver is replayed on one hand of each class: the outcomes are still the rules' own.
- `"model"`: Grits & Glory's autofire and volley fire (several aced dice) and Rencounter's wound
  aftermath (a sepsis point becomes two) are written as icepool expressions in `MODELS`, with the
  rules' own modifiers and outcome names. An aced die is `explode` deep enough that every total
  past its last explosion is past the check's highest threshold, so the odds stay exact.
Either way the distribution must agree with Muster's exactly, which is what checks the shortcut.

Times are this process's CPU seconds (`time.process_time`), the median of repeated calls.
Cold: every `functools.lru_cache` of `rules` that memoises odds is cleared before each Muster
call (the rules as built - checks, stats schemas, the table snapshot - stay built), and every
cache of icepool, and the same caches of `rules` (the replayed resolver uses them), is cleared
and each die built anew before each icepool call. Warm: the same
calls repeated with icepool's caches and dice as the previous call left them, and the rules'
odds caches cleared as for Muster (the budget is on icepool's warm time; Muster's cold time is
what is compared with it).

Prints one JSON document; exits 1 if any check is slower than icepool cold or warm, if the
median ratio is below 10x, or if any distribution disagrees.
Run: `.venv/bin/python bench/odds_vs_icepool.py` (`--quick` for one parameter set per check;
name checks as `system.check` to measure those alone).
"""

from __future__ import annotations

import functools
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import icepool

from rules import aftermath
from rules.checks import Check
from rules.dice import Dice, Die, DieRoll, d
from rules.errors import RulesError
from rules.schema import Field
from rules.system import RuleSystem, all_systems
from rules.systems.escarmouche.pool import ONES_CAP
from rules.systems.grits_and_glory import checks as gg
from rules.systems.grits_and_glory.tables import RAISE_STEP, WILD_DIE

MEDIAN_BUDGET = 10.0
#: Dice on one path of the tree beyond which the rest is lumped (open-ended rolls).
MAX_DEPTH = 26
#: Pools up to this many dice are enumerated die by die, in order; larger ones as sorted hands
#: (an outcome that depends on the order then shows as a disagreement, not as a pass).
ORDERED_UP_TO = 3
#: Resolutions one case may take to enumerate before it is built by hands or a model instead.
MAX_LEAVES = 60_000
_DEEPER = "_deeper"
#: Caches that hold the rules as built, not odds: kept warm in the cold case.
BUILT = ("stats_schema", "in_play", "get_system")


# --- the cases -----------------------------------------------------------------------------


def _typical(field: Field) -> Any:
    if field.default is not None:
        return field.default
    if field.choices:
        return field.choices[len(field.choices) // 2][0]
    if field.kind == "int":
        low = field.min if field.min is not None else 0
        high = field.max if field.max is not None else low + 6
        return (low + high) // 2
    return False if field.kind == "bool" else ""


def _spread(field: Field, value: Any, side: int) -> Any:
    """A value a quarter of the range below (side -1) or above (side +1) the typical one."""
    if field.kind == "int" and field.min is not None and field.max is not None:
        step = max(1, (field.max - field.min) // 4)
        return min(field.max, max(field.min, value + side * step))
    if field.kind in ("choice", "die") and field.choices:
        values = [v for v, _ in field.choices]
        at = values.index(value) if value in values else 0
        return values[min(len(values) - 1, max(0, at + side))]
    return value


def cases(check: Check, quick: bool) -> list[dict[str, Any]]:
    """The typical parameters, then the whole range spread low and high (valid ones only)."""
    typical = {f.name: _typical(f) for f in check.params.fields}
    found = [typical]
    for side in () if quick else (-1, 1):
        spread = {f.name: _spread(f, typical[f.name], side) for f in check.params.fields}
        if spread not in found:
            found.append(spread)
    valid = []
    for params in found:
        try:
            valid.append(check.params.validate(params))
        except RulesError:
            continue
    return valid


# --- caches --------------------------------------------------------------------------------


def _lru_caches(package: str) -> list[tuple[str, Any]]:
    """Every lru_cache wrapper of `package`, named by the function it memoises."""
    found = []
    for obj in gc.get_objects():
        if not isinstance(obj, functools._lru_cache_wrapper):
            continue
        fn = getattr(obj, "__wrapped__", None)
        # A cache that wraps a lambda holds the function it memoises in the lambda's closure.
        code, closure = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
        inner = dict(zip(code.co_freevars, closure or (), strict=False)) if code else {}
        if "fn" in inner:
            fn = inner["fn"].cell_contents
        module = getattr(fn, "__module__", "") or ""
        if module.split(".")[0] == package:
            found.append((getattr(fn, "__qualname__", repr(fn)), obj))
    return found


def muster_odds_caches() -> list[tuple[str, Any]]:
    return [(n, c) for n, c in _lru_caches("rules") if n.split(".")[-1] not in BUILT]


# --- icepool over the check's own dice ----------------------------------------------------


class _Wanted(Exception):
    """The resolver asked for dice the replay was not given: what to branch on next."""

    def __init__(self, kind: str, die: Die, count: int, label: str = "") -> None:
        super().__init__(kind)
        self.kind, self.die, self.count, self.label = kind, die, count, label


class _Replay(Dice):
    """Dice that hand out the values of one path of the tree, then ask for the next."""

    def __init__(self, path: tuple[Any, ...], ordered_up_to: int = ORDERED_UP_TO) -> None:
        super().__init__()
        self.path, self.at, self.ordered_up_to = path, 0, ordered_up_to

    def _next(self, kind: str, die: Die, count: int = 1, label: str = "") -> Any:
        if self.at < len(self.path):
            self.at += 1
            return self.path[self.at - 1]
        raise _Wanted(kind, die, count, label)

    def _face(self, die: Die, label: str) -> int:
        value: int = self._next("die", die)
        return value

    def roll_many(self, count: int, die: Die | int, label: str = "") -> tuple[int, ...]:
        face = d(die) if isinstance(die, int) else die
        if count <= self.ordered_up_to:  # one die at a time: the order the check reads them in
            return tuple(self.roll(face, label) for _ in range(count))
        values: tuple[int, ...] = self._next("pool", face, count, label)
        self.rolls.extend(DieRoll(face.name, v, label) for v in values)
        return values


#: A pool as the classes a system tells apart: (pool label, icepool pool) -> a die of hands.
Hands = Callable[[str, Any], Any]


class IcepoolTree:
    """Builds a check's distribution in icepool by enumerating its dice (see the docstring)."""

    def __init__(
        self,
        check: Check,
        params: Mapping[str, Any],
        warm: dict[Any, Any],
        hands: Hands | None = None,
    ) -> None:
        self.resolver, self.params = check.resolver, params
        self.dice = warm  # one icepool die per (kind, faces, count): the warm case keeps them
        self.hands = hands
        self.leaves = 0

    def _primitive(self, wanted: _Wanted) -> Any:
        reading = wanted.label if self.hands else ""
        key = (wanted.kind, wanted.die.faces, wanted.count, reading)
        die = self.dice.get(key)
        if die is None:
            single = icepool.Die(wanted.die.faces)
            if wanted.kind == "die":
                die = single
            elif self.hands:
                die = self.hands(wanted.label, single.pool(wanted.count))
            else:
                die = single.pool(wanted.count).expand()
            self.dice[key] = die
        return die

    def outcome(self, path: tuple[Any, ...] = ()) -> Any:
        if len(path) > MAX_DEPTH:
            return _DEEPER
        try:
            self.leaves += 1
            if self.leaves > MAX_LEAVES:
                raise _TooMany
            # With hands, every pool of two or more is read as classes, not die by die.
            replay = _Replay(path, 1) if self.hands else _Replay(path)
            return self.resolver(self.params, replay).key
        except _Wanted as wanted:
            die = self._primitive(wanted)
            return die.map(lambda value: self.outcome((*path, value)), star=False)


class _TooMany(Exception):
    """The tree passed MAX_LEAVES resolutions."""


def icepool_odds(
    check: Check, params: Mapping[str, Any], warm: dict[Any, Any], hands: Hands | None = None
) -> Any:
    return _as_die(IcepoolTree(check, params, warm, hands).outcome())


# --- pools too big to enumerate: read as classes, or written as icepool expressions -----------


class _EscarmoucheHand(icepool.MultisetEvaluator):  # type: ignore[misc]  # icepool ships no types
    """One Escarmouche pool as the counts the rules read from it, as one hand of that class.

    An active pool is read for its score (its highest die, or its sixes) and its 1s, of which
    only none, one, two or three and more are told apart (`pool.ONES_CAP`); a passive pool only
    for its 1s; a defender's pool only for its score. The final outcome is one sorted hand with
    those counts (sixes, else the highest die; the 1s; 2s for the rest): the resolver replayed on
    it reads it as any hand of its class, so the check's outcome stays the rules' own, and a
    class drawn too coarsely would show as a disagreement.
    """

    def __init__(self, score: bool, ones: bool) -> None:
        super().__init__()
        self.score, self.ones = score, ones

    def next_state(self, state: Any, order: Any, outcome: int, count: int) -> Any:
        top, sixes, ones = state or (0, 0, 0)
        if count:
            top = max(top, outcome) if self.score else 2
            sixes += count if self.score and outcome == 6 else 0
            ones += count if self.ones and outcome == 1 else 0
        return top, sixes, min(ones, ONES_CAP)

    def final_outcome(self, state: Any, order: Any, outcomes: Any, size: int) -> Any:
        top, sixes, ones = state
        if top == 1:  # every die a 1: the only hand of its class
            return (1,) * size
        scored = (6,) * sixes if sixes else (top,)
        rest = size - len(scored) - ones
        return tuple(sorted((*scored, *(1,) * ones, *(2,) * rest)))


_ACTIVE, _PASSIVE, _DEFENCE = (
    _EscarmoucheHand(score=True, ones=True),
    _EscarmoucheHand(score=False, ones=True),
    _EscarmoucheHand(score=True, ones=False),
)


def escarmouche_hands(label: str, pool: Any) -> Any:
    reading = (
        _PASSIVE if label.endswith("passive") else _DEFENCE if label == "defender" else _ACTIVE
    )
    return reading.evaluate(pool)


HANDS: dict[str, Hands] = {"escarmouche": escarmouche_hands}


def aced(sides: int, highest_threshold: int) -> Any:
    """An aced die in icepool, exploded until every later total passes `highest_threshold`.

    After q aces a total is at least q * sides + 1, so q = ceil(threshold / sides) explosions
    leave every truncated path (counted as its aces so far, `end=0`) at or past the threshold:
    the check reads it the same as any longer chain.
    """
    depth = max(0, -(-highest_threshold // sides))
    return icepool.d(sides).explode(depth=depth, end=0)


def _gg_autofire(system: RuleSystem, p: Mapping[str, Any]) -> Any:
    tables = system.snapshot
    sides, modifier = gg.skill_dice(tables, p["die"], gg._autofire_modifier(tables, p))
    need, shots = p["tn"] - modifier, p["shots"]
    hits = shots @ aced(sides, need).map(lambda total: int(total >= need))
    if p["wild_card"]:
        wild = aced(WILD_DIE, need).map(lambda total: total >= need)
        hits = icepool.map(lambda h, w: h + int(w and h < shots), hits, wild)
    return hits.map(lambda h: gg.HIT_COUNTS[h])


def _gg_volley(system: RuleSystem, p: Mapping[str, Any]) -> Any:
    modifier = gg._volley_modifier(system.snapshot, p)
    top = p["tn"] + RAISE_STEP - modifier
    dice = [aced(p["die"], top), *[aced(WILD_DIE, top)] * gg._volley_wild_dice(p)]
    best = icepool.Pool(dice).highest(1).sum()

    def hit(total: int) -> str:
        total += modifier
        if total < p["tn"]:
            return "miss"
        return "hit" if total < p["tn"] + RAISE_STEP else "raise"

    return best.map(hit)


def _rencounter_aftermath(system: RuleSystem, p: Mapping[str, Any]) -> Any:
    """The aftermath as a Markov chain in icepool: (points pending, points permanent).

    Each step rolls one point's fate on the rules' bands (with the prompt-care reroll and the
    hazard as `aftermath._point_result` applies them). A chain still rolling after `MAX_DEPTH`
    points is the lump `_DEEPER`: Muster's odds here are floats within an error bound, so the
    two agree within that lump, as the replayed tree does for one wound point.
    """
    fates = aftermath.faces(system.snapshot.aftermath_bands)
    care, hazard = p["care"], p["hazard"]
    face = icepool.d6
    if care == "prompt":  # a face that would not heal is rolled again, once
        face = icepool.d6.map(lambda f: icepool.d6 if fates[f] != aftermath.HEALED else f)
    fate = face.map(lambda f: fates[max(f - hazard, 1)])

    def step(state: tuple[int, int], point: str) -> tuple[int, int]:
        pending, permanent = state
        if not pending or permanent > aftermath.MAX_PERMANENT_SURVIVABLE:
            return state  # the rolling has stopped
        if point == aftermath.SEPSIS:
            return pending + 1, permanent
        return pending - 1, permanent + (point == aftermath.PERMANENT)

    chain = icepool.map(step, (p["wounds"], 0), fate, repeat=MAX_DEPTH)

    def verdict(state: tuple[int, int]) -> str:
        pending, permanent = state
        if permanent > aftermath.MAX_PERMANENT_SURVIVABLE:
            return "dies"
        return f"permanent_{permanent}" if not pending else _DEEPER

    return chain.map(verdict, star=False)


MODELS: dict[tuple[str, str], Callable[[RuleSystem, Mapping[str, Any]], Any]] = {
    ("rencounter", "aftermath"): _rencounter_aftermath,
    ("grits_and_glory", "autofire"): _gg_autofire,
    ("grits_and_glory", "volley_fire"): _gg_volley,
}


def _as_die(built: Any) -> Any:
    return built if isinstance(built, icepool.Die) else icepool.Die([built])


# --- timing and agreement -------------------------------------------------------------------


def _timed(call: Callable[[], Any], before: Callable[[], None], repeats: int) -> float:
    # CPU seconds of this process: on a busy machine the wall clock counts other processes.
    times = []
    for _ in range(repeats):
        before()
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _clear(caches: list[tuple[str, Any]]) -> Callable[[], None]:
    def clear() -> None:
        for _, cache in caches:
            cache.cache_clear()

    return clear


class _Cleared:
    """A clear function as a cache: `cache_clear` runs it."""

    def __init__(self, clear: Callable[[], None]) -> None:
        self.cache_clear = clear


def agreement(muster: Mapping[str, Any], built: Any) -> tuple[bool, float]:
    """Whether the two agree exactly (or, where a lump was cut off, within its mass)."""
    total = built.denominator()
    theirs = {k: Fraction(q, total) for k, q in built.items()}
    lump = theirs.pop(_DEEPER, Fraction(0))
    worst = max(abs(Fraction(muster.get(k, 0)) - theirs.get(k, 0)) for k in {*muster, *theirs})
    if lump == 0:
        return worst == 0, float(worst)
    return worst <= lump, float(worst)


class _Built:
    """How icepool builds one case: the replayed tree, hands of a system's pools, or a model."""

    def __init__(self, system: RuleSystem, check: Check, params: Mapping[str, Any]) -> None:
        self.system, self.check, self.params = system, check, params
        self.how, self.leaves = "tree", 0
        self.hands: Hands | None = None
        self.model = MODELS.get((system.key, check.name))

    def first(self, warm: dict[Any, Any]) -> Any:
        """Build it once, falling back from the tree when it passes MAX_LEAVES."""
        try:
            tree = IcepoolTree(self.check, self.params, warm)
            built = _as_die(tree.outcome())
            self.leaves = tree.leaves
            return built
        except _TooMany:
            warm.clear()
        if self.model is not None:
            self.how = "model"
            return self.build(warm)
        self.hands = HANDS.get(self.system.key)
        if self.hands is None:
            raise _TooMany
        self.how = "hands"
        tree = IcepoolTree(self.check, self.params, warm, self.hands)
        built = _as_die(tree.outcome())
        self.leaves = tree.leaves
        return built

    def build(self, warm: dict[Any, Any]) -> Any:
        if self.how == "model":
            assert self.model is not None
            return self.model(self.system, self.params)
        return icepool_odds(self.check, self.params, warm, self.hands)


def measure(
    system: RuleSystem, check: Check, params: dict[str, Any], caches: tuple[Any, Any]
) -> dict[str, Any]:
    muster_caches, icecaches = caches
    row: dict[str, Any] = {"system": system.key, "check": check.name, "params": params}
    how = _Built(system, check, params)
    warm_dice: dict[Any, Any] = {}
    try:
        built = how.first(warm_dice)
    except _TooMany:
        return {**row, "skipped": f"more than {MAX_LEAVES} resolutions to enumerate"}
    odds = check.odds(params).probabilities
    agrees, worst = agreement(odds, built)
    # A tree of thousands of resolutions takes icepool seconds: fewer repeats say as much.
    repeats = 1 if how.leaves > 2_000 else 5 if how.leaves > 100 else 21
    muster_cold = _timed(lambda: check.odds(params), muster_caches, 21)
    # Cold for icepool is cold for the rules it replays too (a fire plan is cached per params).
    both = _clear([*icecaches, ("muster", _Cleared(muster_caches))])
    ice_cold = _timed(lambda: how.build({}), both, repeats)
    # Warm is icepool's caches and dice kept; the rules' caches the replay reads are cleared
    # as for Muster (a fire plan cached per params would otherwise be Muster's work, reused).
    ice_warm = _timed(lambda: how.build(warm_dice), muster_caches, repeats)
    return {
        **row,
        "built": how.how,
        "outcomes": len(odds),
        "leaves": how.leaves,
        "agrees": agrees,
        "worst_difference": worst,
        "muster_cold_us": round(muster_cold * 1e6, 1),
        "icepool_cold_us": round(ice_cold * 1e6, 1),
        "icepool_warm_us": round(ice_warm * 1e6, 1),
        "ratio_cold": round(ice_cold / muster_cold, 2),
        "ratio_warm": round(ice_warm / muster_cold, 2),
    }


def rows(quick: bool, only: set[str]) -> Iterator[dict[str, Any]]:
    systems = all_systems()
    caches = (_clear(muster_odds_caches()), _lru_caches("icepool"))
    for system in systems:
        for check in system.checks.values():
            if only and f"{system.key}.{check.name}" not in only:
                continue
            for params in cases(check, quick):
                row = measure(system, check, params, caches)
                progress = row.get("ratio_warm", "skipped")
                print(row["system"], row["check"], progress, file=sys.stderr)
                yield row


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    # `--only system.check ...`: those checks alone (to look at a few; the budget is on all).
    only = {a for a in sys.argv[1:] if not a.startswith("--")}
    measured = list(rows(quick, only))
    timed = [r for r in measured if "skipped" not in r]
    per_check: dict[str, float] = {}
    for r in timed:  # a check's ratio is its worst case's
        name = f"{r['system']}.{r['check']}"
        ratio = min(r["ratio_cold"], r["ratio_warm"])
        per_check[name] = min(per_check.get(name, ratio), ratio)
    median = statistics.median(per_check.values())
    slower = sorted(name for name, ratio in per_check.items() if ratio < 1)
    disagree = [f"{r['system']}.{r['check']} {r['params']}" for r in timed if not r["agrees"]]
    report = {
        "benchmark": "odds_vs_icepool",
        "icepool": icepool.__version__,
        "cases": measured,
        "checks": len(per_check),
        "cases_skipped": sum("skipped" in r for r in measured),
        "median_ratio": round(median, 2),
        "lowest": sorted(per_check.items(), key=lambda kv: kv[1])[:5],
        "slower_than_icepool": slower,
        "disagree": disagree,
        "within_budget": not slower and median >= MEDIAN_BUDGET and not disagree,
    }
    print(json.dumps(report, indent=2, default=str))
    return 0 if report["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
