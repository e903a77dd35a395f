"""Auto-resolve: an abstract skirmish with the real shooting, wounding, melee and morale checks.

No terrain and no distances: every shot is at medium range in the open. Each turn both sides
roll initiative and alternate figures. A figure with a usable loaded firearm shoots at a random
enemy (muzzle-loaders spend a turn reloading); one without closes and fights hand to hand.
Morale is tested when wounded, when a friend dies, and by the whole side at 25% losses, at most
once per figure per turn. A side with no figure left standing has lost; after MAX_TURNS the
side with fewer losses wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.checks import Check, Effect, Prepared, Resolution
from rules.dice import Dice
from rules.schema import Schema
from rules.simulate import SimEvent, SimFigure, SimResult, questions_for, validated_snapshot
from rules.systems.d12_skirmish import tables as t
from rules.systems.d12_skirmish.activation import roll_initiative
from rules.systems.d12_skirmish.checks import CHECKS
from rules.systems.d12_skirmish.stats import STATS, initial_state
from rules.systems.d12_skirmish.tables import FIRES_EVERY_TURN

MAX_TURNS = 20
OUT_STATUSES = frozenset({"dead", "routed", "captured"})
LOSS_TEST_FRACTION = 4  # a quarter of the side lost


class _Skirmish:
    def __init__(
        self,
        sides: Sequence[Sequence[SimFigure]],
        dice: Dice,
        tables: t.D12Tables,
        checks: Mapping[str, Check],
        schema: Schema,
    ) -> None:
        self.sides = [[f.ref for f in side] for side in sides]
        self.side_of = {f.ref: i for i, side in enumerate(sides) for f in side}
        # The checks, stats and arms of the rules the battle runs under (a club's, if any).
        self.checks = checks
        # Questions prepared under these checks, shared by every battle of a batch.
        self.questions = questions_for(checks)
        self.asked = self.questions.asked
        self.skills = {
            name: frozenset({check.skill}) for name, check in checks.items() if check.skill
        }
        self.stats = {f.ref: validated_snapshot(schema, f.stats) for side in sides for f in side}
        self.firearms = dict(tables.FIREARMS)
        self.every_turn = tables.FIREARMS_EVERY_TURN
        self.melee = tables.MELEE_WEAPONS
        self.states = {ref: initial_state(s) for ref, s in self.stats.items()}
        # What each figure brings to a question that its stats decide (fixed for the battle).
        self.shooter = {ref: self._shooter(ref) for ref in self.stats}
        self.fighter = {ref: _fighter(s, self.melee) for ref, s in self.stats.items()}
        # Each side's figures still standing, in the side's order: kept as figures fall (a
        # fallen figure never stands again) rather than read from every state on every look.
        self.up = [
            [r for r in side if self.states[r]["status"] not in OUT_STATUSES] for side in self.sides
        ]
        self.dice, self.turn = dice, 1
        self.events: list[SimEvent] = []
        self.tested: set[str] = set()
        self.loss_tested: set[int] = set()
        self.used: dict[str, frozenset[str]] = {}

    def standing(self, side: int) -> list[str]:
        return self.up[side]

    def ask(self, key: tuple[Any, ...], params: Callable[[], dict[str, Any]]) -> Prepared:
        """The question under `key` (its check's name, then every value its parameters are
        built from), prepared with `params()` the first time a battle of the batch asks it."""
        prepared = self.asked.get(key)
        if prepared is None:
            prepared = self.questions.prepare(key, key[0], params())
        return prepared

    def act(self, prepared: Prepared, actor: str, target: str | None) -> Resolution:
        resolution = prepared.roll(self.dice)
        for effect in resolution.effects:
            self._apply(effect, actor if effect.who == "actor" else target)
        self.events.append(_new_event(SimEvent, (self.turn, actor, target, resolution)))
        skill = self.skills.get(resolution.check)
        if skill:
            self.used[actor] = skill
        return resolution

    def _apply(self, effect: Effect, ref: str | None) -> None:
        if ref is None:
            return
        state = self.states[ref]
        effect.apply(state)
        if state["wounds"] >= self.stats[ref]["wounds"] and state["status"] not in OUT_STATUSES:
            state["status"] = "dead"
        elif state["wounds"] and state["status"] == "unhurt":
            state["status"] = "wounded"
        if state["status"] in OUT_STATUSES:
            up = self.up[self.side_of[ref]]
            if ref in up:
                up.remove(ref)

    def morale(self, ref: str) -> None:
        if ref in self.tested or self.states[ref]["status"] in OUT_STATUSES:
            return
        self.tested.add(ref)
        state, stats = self.states[ref], self.stats[ref]
        ability = stats["ability"] if stats["ability"] in ("loyal", "yella") else "none"
        troop, wounds, failed_last = stats["troop"], state["wounds"], state["failed_morale"] > 0
        prepared = self.ask(
            ("morale", troop, wounds, ability, failed_last),
            lambda: {
                "troop": troop,
                "wounds": wounds,
                "ability": ability,
                "failed_last": failed_last,
            },
        )
        self.act(prepared, ref, None)

    def after_harm(self, target: str) -> None:
        side = self.side_of[target]
        if self.states[target]["status"] == "dead":
            for friend in tuple(self.up[side]):  # a test may rout a friend from the list
                self.morale(friend)
        else:
            self.morale(target)
        lost = len(self.sides[side]) - len(self.up[side])
        if side not in self.loss_tested and lost * LOSS_TEST_FRACTION >= len(self.sides[side]):
            self.loss_tested.add(side)
            for friend in tuple(self.up[side]):
                self.morale(friend)

    def _shooter(self, ref: str) -> tuple[tuple[str, Any], ...]:
        """The fire check's parameters that the shooter's stats decide, in the order given."""
        stats = self.stats[ref]
        return (
            ("troop", stats["troop"]),
            ("shooting_expert", stats["expertise"]),
            *self.arm(ref).items(),
            ("loading", stats["loading"]),
            (
                "ability",
                stats["ability"] if stats["ability"] in ("dead_eye", "twitchy") else "none",
            ),
        )

    def shoot(self, ref: str, target: str) -> None:
        shooter, wounds = self.shooter[ref], self.states[ref]["wounds"]
        skirmisher = self.stats[target]["ability"] == "expert_skirmisher"
        prepared = self.ask(
            ("fire", shooter, wounds, skirmisher),
            lambda: {
                **dict(shooter[:2]),  # troop and expertise, then as the text lists a shot
                "wounds": wounds,
                **dict(shooter[2:]),
                "expert_skirmisher": skirmisher,
            },
        )
        shot = self.act(prepared, ref, target)
        if shot.outcome == "hit":
            self.wound(ref, target)
        elif shot.outcome == "misfire":
            misfire = self.ask(("misfire",), dict)
            if self.act(misfire, ref, None).outcome == "explodes":
                self.wound(ref, ref)

    def arm(self, ref: str) -> dict[str, Any]:
        """What the shot names: medium range, and a club's firearm that fires every turn.

        Named, such a firearm is not unloaded by the shot; one without a medium band shoots
        at its next band out (else in). Other shots name no firearm, as the rules as written.
        """
        arm = next((w for w in self.stats[ref]["weapons"] if w in self.every_turn), None)
        if arm is None:
            return {"range": "medium"}
        bands = dict(zip(("close", "medium", "extreme"), self.firearms[arm], strict=True))
        band = next(b for b in ("medium", "extreme", "close") if bands[b] is not None)
        return {"firearm": arm, "range": band}

    def wound(self, ref: str, target: str) -> None:
        mount = "cavalry" if self.states[target]["mounted"] else "foot"
        tough = self.stats[target]["ability"] == "tough"
        prepared = self.ask(("wound", mount, tough), lambda: {"mount": mount, "tough": tough})
        self.act(prepared, ref, target)
        self.after_harm(target)

    def fight(self, ref: str, target: str) -> None:
        ours, theirs = self.states[ref], self.states[target]
        # Each side: its stats' part, its wounds (at most 5 count) and whether still mounted.
        us = (self.fighter[ref], min(ours["wounds"], 5), bool(ours["mounted"]))
        them = (self.fighter[target], min(theirs["wounds"], 5), bool(theirs["mounted"]))
        prepared = self.ask(
            ("hand_to_hand", us, them),
            lambda: {**_side(*us, ""), **_side(*them, "enemy_"), "charged": True},
        )
        self.act(prepared, ref, target)
        for hurt in (ref, target):
            if self.states[hurt]["wounds"] or self.states[hurt]["status"] == "dead":
                self.after_harm(hurt)

    def activate(self, ref: str) -> None:
        state, stats = self.states[ref], self.stats[ref]
        enemies = self.up[1 - self.side_of[ref]]
        if state["status"] in OUT_STATUSES or not enemies:
            return
        if state["pinned"] or state.get("morale"):
            state["pinned"], state["morale"] = False, None  # sits this activation out
            return
        target = (
            enemies[self.dice.roll(len(enemies), "target") - 1] if len(enemies) > 1 else enemies[0]
        )
        firearms = set(self.firearms).intersection(stats["weapons"])
        armed = bool(firearms) and state["weapon"] == "ready"
        every_turn = stats["loading"] in FIRES_EVERY_TURN or bool(firearms & self.every_turn)
        if armed and (state["loaded"] or every_turn):
            self.shoot(ref, target)
        elif armed:
            state["loaded"] = True  # a muzzle-loader spends the turn reloading
        else:
            self.fight(ref, target)

    def play_turn(self) -> None:
        self.tested = set()
        first, _ = roll_initiative(self.dice, self.turn)
        order = [self.sides[first], self.sides[1 - first]]
        up = self.up
        for index in range(max(len(order[0]), len(order[1]))):
            for side in order:
                if index < len(side) and up[0] and up[1]:
                    self.activate(side[index])


#: A SimEvent built as a plain tuple: a NamedTuple's generated __new__ is a Python call per event.
_new_event = tuple.__new__


def _fighter(stats: Mapping[str, Any], melee: Mapping[str, int]) -> tuple[Any, ...]:
    """A figure's side of a hand-to-hand question that its stats decide: troop, expertise,
    the best hand-to-hand weapon it carries (a sword over a bayonet, as written), and whether
    it is a Combat Expert."""
    carried = [w for w in stats["weapons"] if w in melee]
    weapon = max(carried, key=lambda w: melee[w]) if carried else "none"
    return stats["troop"], stats["expertise"], weapon, stats["ability"] == "combat_expert"


def _side(fighter: tuple[Any, ...], wounds: int, cavalry: bool, prefix: str) -> dict[str, Any]:
    troop, expertise, weapon, expert = fighter
    return {
        f"{prefix}troop": troop,
        f"{prefix}combat_expertise": expertise,
        f"{prefix}weapon": weapon,
        f"{prefix}wounds": wounds,
        f"{prefix}cavalry": cavalry,
        f"{prefix}combat_expert": expert,
    }


def simulate(
    sides: Sequence[Sequence[SimFigure]],
    options: Mapping[str, Any],
    dice: Dice,
    *,
    tables: t.D12Tables = t.BASE,
    checks: Mapping[str, Check] = CHECKS,
    stats: Schema = STATS,
) -> SimResult:
    """Fight an abstract skirmish until one side has no figure standing, or MAX_TURNS, with
    `tables` and the checks and stats built from them (a club's, bound by `with_house`)."""
    battle = _Skirmish(sides, dice, tables, checks, stats)
    while battle.turn <= MAX_TURNS and battle.up[0] and battle.up[1]:
        battle.play_turn()
        battle.turn += 1
    casualties = tuple(len(battle.sides[s]) - len(battle.standing(s)) for s in (0, 1))
    winner = None if casualties[0] == casualties[1] else casualties.index(min(casualties))
    return SimResult(
        winner, battle.turn - 1, tuple(battle.events), battle.states, casualties, battle.used
    )
