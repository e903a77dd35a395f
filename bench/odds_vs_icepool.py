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
die), so every probability is icepool's arithmetic and every outcome is the rules' own. A case
whose tree would pass `MAX_LEAVES` resolutions is skipped and listed (too many dice to enumerate
one by one; icepool would need a hand-written evaluator there).

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
Run: `.venv/bin/python bench/odds_vs_icepool.py` (`--quick` for one parameter set per check).
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

from rules.checks import Check
from rules.dice import Dice, Die, DieRoll, d
from rules.errors import RulesError
from rules.schema import Field
from rules.system import all_systems

MEDIAN_BUDGET = 10.0
#: Dice on one path of the tree beyond which the rest is lumped (open-ended rolls).
MAX_DEPTH = 26
#: Pools up to this many dice are enumerated die by die, in order; larger ones as sorted hands
#: (an outcome that depends on the order then shows as a disagreement, not as a pass).
ORDERED_UP_TO = 3
#: Resolutions one case may take to enumerate before it is skipped.
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
        code = getattr(fn, "__code__", None)
        inner = dict(zip(code.co_freevars, fn.__closure__ or (), strict=False)) if code else {}
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

    def __init__(self, kind: str, die: Die, count: int) -> None:
        super().__init__(kind)
        self.kind, self.die, self.count = kind, die, count


class _Replay(Dice):
    """Dice that hand out the values of one path of the tree, then ask for the next."""

    def __init__(self, path: tuple[Any, ...]) -> None:
        super().__init__()
        self.path, self.at = path, 0

    def _next(self, kind: str, die: Die, count: int = 1) -> Any:
        if self.at < len(self.path):
            self.at += 1
            return self.path[self.at - 1]
        raise _Wanted(kind, die, count)

    def _face(self, die: Die, label: str) -> int:
        value: int = self._next("die", die)
        return value

    def roll_many(self, count: int, die: Die | int, label: str = "") -> tuple[int, ...]:
        face = d(die) if isinstance(die, int) else die
        if count <= ORDERED_UP_TO:  # one die at a time: the order the check reads them in
            return tuple(self.roll(face, label) for _ in range(count))
        values: tuple[int, ...] = self._next("pool", face, count)
        self.rolls.extend(DieRoll(face.name, v, label) for v in values)
        return values


class IcepoolTree:
    """Builds a check's distribution in icepool by enumerating its dice (see the docstring)."""

    def __init__(self, check: Check, params: Mapping[str, Any], warm: dict[Any, Any]) -> None:
        self.resolver, self.params = check.resolver, params
        self.dice = warm  # one icepool die per (kind, faces, count): the warm case keeps them
        self.leaves = 0

    def _primitive(self, wanted: _Wanted) -> Any:
        key = (wanted.kind, wanted.die.faces, wanted.count)
        die = self.dice.get(key)
        if die is None:
            single = icepool.Die(wanted.die.faces)
            die = single if wanted.kind == "die" else single.pool(wanted.count).expand()
            self.dice[key] = die
        return die

    def outcome(self, path: tuple[Any, ...] = ()) -> Any:
        if len(path) > MAX_DEPTH:
            return _DEEPER
        try:
            self.leaves += 1
            if self.leaves > MAX_LEAVES:
                raise _TooMany
            return self.resolver(self.params, _Replay(path)).key
        except _Wanted as wanted:
            die = self._primitive(wanted)
            return die.map(lambda value: self.outcome((*path, value)), star=False)


class _TooMany(Exception):
    """The tree passed MAX_LEAVES resolutions."""


def icepool_odds(check: Check, params: Mapping[str, Any], warm: dict[Any, Any]) -> Any:
    return _as_die(IcepoolTree(check, params, warm).outcome())


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


def measure(
    system: str, check: Check, params: dict[str, Any], caches: tuple[Any, Any]
) -> dict[str, Any]:
    muster_caches, icecaches = caches
    row: dict[str, Any] = {"system": system, "check": check.name, "params": params}
    try:
        warm_dice: dict[Any, Any] = {}
        tree = IcepoolTree(check, params, warm_dice)
        built = _as_die(tree.outcome())
    except _TooMany:
        return {**row, "skipped": f"more than {MAX_LEAVES} resolutions to enumerate"}
    odds = check.odds(params).probabilities
    agrees, worst = agreement(odds, built)
    # A tree of thousands of resolutions takes icepool seconds: fewer repeats say as much.
    repeats = 1 if tree.leaves > 2_000 else 5 if tree.leaves > 100 else 21
    muster_cold = _timed(lambda: check.odds(params), muster_caches, 21)
    # Cold for icepool is cold for the rules it replays too (a fire plan is cached per params).
    both = _clear([*icecaches, ("muster", _Cleared(muster_caches))])
    ice_cold = _timed(lambda: icepool_odds(check, params, {}), both, repeats)
    # Warm is icepool's caches and dice kept; the rules' caches the replay reads are cleared
    # as for Muster (a fire plan cached per params would otherwise be Muster's work, reused).
    ice_warm = _timed(lambda: icepool_odds(check, params, warm_dice), muster_caches, repeats)
    return {
        **row,
        "outcomes": len(odds),
        "leaves": tree.leaves,
        "agrees": agrees,
        "worst_difference": worst,
        "muster_cold_us": round(muster_cold * 1e6, 1),
        "icepool_cold_us": round(ice_cold * 1e6, 1),
        "icepool_warm_us": round(ice_warm * 1e6, 1),
        "ratio_cold": round(ice_cold / muster_cold, 2),
        "ratio_warm": round(ice_warm / muster_cold, 2),
    }


def rows(quick: bool) -> Iterator[dict[str, Any]]:
    systems = all_systems()
    caches = (_clear(muster_odds_caches()), _lru_caches("icepool"))
    for system in systems:
        for check in system.checks.values():
            for params in cases(check, quick):
                row = measure(system.key, check, params, caches)
                progress = row.get("ratio_warm", "skipped")
                print(row["system"], row["check"], progress, file=sys.stderr)
                yield row


def main() -> int:
    quick = "--quick" in sys.argv[1:]
    measured = list(rows(quick))
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
