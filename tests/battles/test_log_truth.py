"""The record follows the log: whoever brings a man down gets the kill, whichever side of the
check he was on, and the figure's end of battle says what the log recorded.

alice's Red and bob's Blue fight in a campaign of each system; every number here is read from
the event log, then compared with the figures' lines, the after page and the careers.
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import TestCase

from battles import services
from battles.models import Battle, BattleFigure
from battles.services import SideChoice
from battles.services.table import KILLED
from pages.after import HEALED, battle_report, is_wound_roll
from pages.schema_forms import opening_values
from rules.checks import Check, Resolution
from rules.dice import SeededDice
from rules.errors import RulesError
from rules.system import RuleSystem, all_systems, get_system
from tests.consent import finish_agreed
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

SYSTEMS = [s.key for s in all_systems()]
#: Seeds tried when looking for a roll in which the acting figure falls.
SEARCH = 400


def _force(campaign: Any, owner: Any, name: str, size: int) -> Any:
    force = ForceFactory(campaign=campaign, owner=owner, name=name)
    unit = UnitFactory(force=force, name=f"{name} foot")
    for i in range(size):
        CharacterFactory(force=force, unit=unit, name=f"{name} man {i + 1}")
    return force


def _battle(key: str, size: int = 1) -> Battle:
    campaign = CampaignFactory(system=key, calendar_date=date(1643, 5, 14))
    alice, bob = UserFactory(username=f"alice-{key}"), UserFactory(username=f"bob-{key}")
    for user in (alice, bob):
        MembershipFactory(user=user, campaign=campaign)
    forces = [_force(campaign, alice, "Red", size), _force(campaign, bob, "Blue", size)]
    return services.battle_start(
        sides=[SideChoice(force=f) for f in forces], campaign=campaign, user=alice
    )


def _params(check: Check) -> dict[str, Any] | None:
    try:
        return dict(check.params.validate(opening_values(check.params)))
    except (RulesError, TypeError, ValueError):
        return None


def _on_the_brink(system: RuleSystem, state: dict[str, Any]) -> dict[str, Any]:
    """The state one hit from falling, where the system counts wounds down to nothing."""
    return {**state, system.harm: 1} if system.harm_counts_down else state


def _settled(system: RuleSystem, state: dict[str, Any], resolution: Resolution, who: str) -> str:
    after = copy.deepcopy(state)
    for effect in resolution.effects:
        if effect.who == who:
            effect.apply(after)
    system.settle_state(after)
    return str(after.get("status"))


def _variants(check: Check) -> list[dict[str, Any]]:
    """The opening parameters, and each with one of its options switched on (a riposte)."""
    base = _params(check)
    if base is None:
        return []
    flags = [f.name for f in check.params.fields if f.kind == "bool" and not base[f.name]]
    return [base, *({**base, name: True} for name in flags)]


def _actor_falls(system: RuleSystem, state: dict[str, Any]) -> tuple[str, dict, list] | None:
    """Find a check and its dice in which the acting figure is brought down by its target."""
    for check in system.checks.values():
        if check.aims_at != "foe" or check.friendly_fire or not check.takes_target:
            continue  # the actor must fight a foe: a check taking no target has no one to kill
        for params in _variants(check):
            for seed in range(SEARCH):
                try:
                    resolution = check.resolve(params, SeededDice("falls", f"{check.name}/{seed}"))
                except RulesError:
                    break
                if _settled(system, state, resolution, "actor") in KILLED:
                    return check.name, params, [r.value for r in resolution.dice]
    return None


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_figure_brought_down_while_acting_is_the_kill_of_the_figure_it_fought(
    db: Any, key: str
) -> None:
    battle = _battle(key)
    system = get_system(key)
    red = battle.figures.get(side__index=0)
    blue = battle.figures.get(side__index=1)
    red.state = _on_the_brink(system, red.state)
    red.save(update_fields=["state"])
    found = _actor_falls(system, red.state)
    if found is None:
        pytest.skip(f"{system.name} has no check in which the defender strikes the actor down")
    check, params, dice = found

    services.battle_resolve(
        battle=battle, check=check, actor=red.pk, target=blue.pk, params=params, dice=dice
    )

    red.refresh_from_db()
    blue.refresh_from_db()
    assert red.state["status"] in KILLED
    assert (blue.kills, red.kills) == (1, 0)


@pytest.mark.parametrize(
    ("key", "check"),
    [("d12_skirmish", "hand_to_hand"), ("rencounter", "melee"), ("escarmouche", "fight")],
)
def test_the_defender_strikes_back_in_each_melee(db: Any, key: str, check: str) -> None:
    """The searches above must find the melee of every system whose defender can kill."""
    system = get_system(key)
    battle = _battle(key)
    red = battle.figures.get(side__index=0)
    state = _on_the_brink(system, red.state)
    only = RuleSystem.__new__(RuleSystem)
    object.__setattr__(
        only, "__dict__", {**system.__dict__, "checks": {check: system.checks[check]}}
    )

    assert _actor_falls(only, state) is not None


def test_voiding_the_blow_takes_the_kill_back(db: Any) -> None:
    battle = _battle("d12_skirmish")
    red, blue = battle.figures.get(side__index=0), battle.figures.get(side__index=1)
    # Ours 1 against theirs 12: lost by 11, the attacker is killed.
    services.battle_resolve(
        battle=battle, check="hand_to_hand", actor=red.pk, target=blue.pk, dice=[1, 12]
    )
    assert battle.figures.get(pk=blue.pk).kills == 1

    services.battle_void_last(battle=battle)

    assert battle.figures.get(pk=blue.pk).kills == 0
    assert battle.figures.get(pk=red.pk).state["status"] == "unhurt"


# --- careers equal the log ------------------------------------------------------------------


def _fight_it_out(battle: Battle, system: RuleSystem, rounds: int) -> None:
    """Resolve every check both ways, several times over, with the server's dice."""
    figures = list(battle.figures.order_by("side__index", "pk"))
    pairs = [(a, b) for a in figures for b in figures if a.side_id != b.side_id]
    for n in range(rounds):
        for check in system.checks.values():
            params = _params(check)
            if params is None or check.aims_at != "foe":
                continue
            actor, target = pairs[n % len(pairs)]
            try:
                services.battle_resolve(
                    battle=battle, check=check.name, actor=actor.pk, target=target.pk, params=params
                )
            except ValidationError:
                continue  # a check these figures cannot take (no target of that kind)


def _log_reading(battle: Battle, system: RuleSystem) -> tuple[dict[int, dict], dict[int, int]]:
    """Replay the standing events' effects from the starting states: the state and kills the
    log says each figure ended with."""
    figures = {f.pk: f for f in battle.figures.all()}
    states = {pk: system.initial_state(f.stats) for pk, f in figures.items()}
    kills = dict.fromkeys(figures, 0)
    for event in battle.events.filter(voided=False, kind="CHECK").order_by("seq"):
        touched = {"actor": event.actor_id, "target": event.target_id}
        down = {pk: states[pk].get("status") in KILLED for pk in touched.values() if pk}
        for effect in event.effects:
            pk = touched[effect["who"]]
            value = effect["value"]
            if effect["op"] == "add":
                states[pk][effect["key"]] = states[pk].get(effect["key"], 0) + value
            else:
                states[pk][effect["key"]] = value
        for pk in down:
            system.settle_state(states[pk])
        friendly = event.details.get("friendly_fire")
        for who, other in (("actor", "target"), ("target", "actor")):
            fallen, by = touched[who], touched[other]
            if not (fallen and by) or friendly or figures[fallen].side_id == figures[by].side_id:
                continue
            if not down[fallen] and states[fallen].get("status") in KILLED:
                kills[by] += 1
    return states, kills


def _finish(battle: Battle) -> Battle:
    sides = [
        {"side": side.pk, "result": result}
        for side, result in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    services.battle_record_result(battle=battle, sides=sides)
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_agreed(battle)
    return Battle.objects.get(pk=battle.pk)


@pytest.mark.parametrize("key", SYSTEMS)
def test_each_figure_ends_the_battle_as_the_log_says(db: Any, key: str) -> None:
    system = get_system(key)
    battle = _battle(key, size=2)
    _fight_it_out(battle, system, rounds=6)
    states, kills = _log_reading(battle, system)

    battle = _finish(battle)

    for figure in BattleFigure.objects.filter(battle=battle):
        said = system.end_status(figure.stats, states[figure.pk])
        assert figure.kills == kills[figure.pk], figure.name
        assert figure.final_status == said, figure.name
        hurt = system.harm_taken(figure.stats, states[figure.pk])
        if hurt:
            assert figure.final_status != "unhurt", figure.name
        if figure.record is not None:
            assert figure.record["wounds"] == hurt
            assert figure.record["kills"] == kills[figure.pk]


@pytest.mark.parametrize("key", ["escarmouche", "game_the_90"])
def test_a_hit_is_not_told_as_unhurt_on_the_after_page_or_the_career(
    db: Any, client: Any, key: str
) -> None:
    system = get_system(key)
    battle = _battle(key)
    red = battle.figures.get(side__index=0)
    red.state = {
        **red.state,
        system.harm: red.state[system.harm] + (-1 if system.harm_counts_down else 1),
    }
    red.save(update_fields=["state"])

    battle = _finish(battle)

    red.refresh_from_db()
    assert red.final_status == "wounded"
    report = battle_report(battle, system, list(battle.ledger.all()))
    lines = [line.text for side in report for line in side.wounds]
    assert any(text.startswith("1 ") for text in lines), lines
    if system.harm == "wounds":  # a wound heals or leaves a mark: the page says which
        (said,) = [line.sentences for side in report for line in side.wounds]
        rolled = [r for r in battle.ledger.all() if is_wound_roll(r)]
        assert said == ((HEALED,) if not rolled else said) and said, said
    client.force_login(red.character.force.owner)
    page = client.get(f"/characters/{red.character_id}/").content.decode()
    assert "Ended the battle wounded" in page
    assert "unhurt" not in page


# --- chips follow the state -----------------------------------------------------------------


def _chips(battle: Battle, pk: int) -> list[str]:
    from rules import narrate

    figure = battle.figures.get(pk=pk)
    return [text for text, _ in narrate.state_chips(battle.system, figure.state)]


def test_a_musket_chip_reads_unloaded_after_firing_then_reloading_then_loaded(
    db: Any, client: Any
) -> None:
    battle = _battle("rencounter")
    red, blue = battle.figures.get(side__index=0), battle.figures.get(side__index=1)
    assert "loaded" in _chips(battle, red.pk)
    musket = {"skill": 7, "weapon": "flintlock_musket"}

    services.battle_resolve(
        battle=battle, check="fire", actor=red.pk, target=blue.pk, params=musket
    )
    assert "unloaded" in _chips(battle, red.pk)
    assert "loaded" not in _chips(battle, red.pk)

    reload = {"weapon": "flintlock_musket", "progress": 0}
    services.battle_resolve(battle=battle, check="reload", actor=red.pk, params=reload)
    assert "reloading 1 turn" in _chips(battle, red.pk)
    client.force_login(red.character.force.owner)
    assert "reloading 1 turn" in client.get(f"/battles/{battle.pk}/").content.decode()

    state = battle.figures.get(pk=red.pk).state
    reload = {"weapon": "flintlock_musket", "progress": state["reload_progress"]}
    services.battle_resolve(battle=battle, check="reload", actor=red.pk, params=reload)
    chips = _chips(battle, red.pk)
    assert "loaded" in chips and not any("reloading" in c or c == "unloaded" for c in chips)


def test_a_d12_muzzle_loader_is_unloaded_by_its_shot_and_loaded_by_a_reload(db: Any) -> None:
    battle = _battle("d12_skirmish")
    red, blue = battle.figures.get(side__index=0), battle.figures.get(side__index=1)
    params = {"loading": "muzzle"}

    services.battle_resolve(
        battle=battle, check="fire", actor=red.pk, target=blue.pk, params=params
    )
    assert "unloaded" in _chips(battle, red.pk)

    services.battle_resolve(battle=battle, check="reload", actor=red.pk)
    assert "loaded" in _chips(battle, red.pk)
