"""Auto-resolve: a saved battle with the simulation's event log, and batch odds (not saved)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle, BattleStatus, SideResult
from battles.services import SideChoice
from battles.services.simulate import sim_sides
from rules.system import all_systems, get_system
from tests.battles.conftest import Cast
from tests.consent import finish_agreed
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    UnitFactory,
    UserFactory,
)


def test_auto_resolve_saves_the_event_log_and_a_result(battle: Battle) -> None:
    services.battle_auto_resolve(battle=battle)

    battle.refresh_from_db()
    results = sorted(battle.sides.values_list("result", flat=True))
    assert battle.auto_resolved and battle.status == BattleStatus.IN_PROGRESS
    assert battle.events.count() > 0
    assert results in (sorted([SideResult.WIN, SideResult.LOSS]), [SideResult.DRAW] * 2)
    assert list(battle.events.order_by("seq").values_list("seq", flat=True)) == list(
        range(1, battle.events.count() + 1)
    )


def test_an_auto_resolved_battle_finishes_and_processes(battle: Battle) -> None:
    services.battle_auto_resolve(battle=battle)
    finish_agreed(battle)

    assert services.battle_process(battle_id=battle.pk) is True
    assert services.battle_audit(battle=Battle.objects.get(pk=battle.pk))["all_match"]


def test_auto_resolve_refuses_a_battle_already_under_way(battle: Battle) -> None:
    figure = battle.figures.first()
    services.battle_resolve(
        battle=battle, check="action", actor=figure.pk, params={"experience": 4}
    )

    with pytest.raises(ValidationError, match="already has events"):
        services.battle_auto_resolve(battle=battle)


def test_a_batch_returns_rates_that_add_up_and_saves_nothing(battle: Battle) -> None:
    events = battle.events.count()

    summary = services.simulate_batch(
        system=get_system("rencounter"),
        sides=sim_sides(battle),
        options=battle.options,
        runs=40,
        seed="fixed",
    )

    assert summary.runs == 40
    assert sum(summary.wins) + summary.draws == pytest.approx(1)
    assert all(sum(d.values()) == pytest.approx(1) for d in summary.casualties)
    assert battle.events.count() == events


def test_a_batch_with_the_same_seed_gives_the_same_answer(battle: Battle) -> None:
    sides, options = sim_sides(battle), battle.options
    system = get_system("rencounter")

    first = services.simulate_batch(system=system, sides=sides, options=options, runs=20, seed="s")
    again = services.simulate_batch(system=system, sides=sides, options=options, runs=20, seed="s")

    assert first == again


def test_the_batch_endpoint_answers_rates_for_two_forces(cast: Cast) -> None:
    body = {"sides": [{"force": cast.red.pk}, {"force": cast.blue.pk}]}

    response = cast.client(cast.alice).post("/api/battles/simulate/?runs=30", body, format="json")

    data = response.json()
    assert response.status_code == 200 and data["runs"] == 30
    assert len(data["win_rate"]) == 2 and 0 <= data["draw_rate"] <= 1


def test_the_batch_endpoint_refuses_too_many_runs(cast: Cast, battle: Battle) -> None:
    response = cast.client(cast.alice).post(f"/api/battles/{battle.pk}/simulate/?runs=100001")

    assert response.status_code == 400
    assert "between 1 and" in response.json()["runs"][0]


def _battle_of(system: str) -> Battle:
    campaign = CampaignFactory(system=system)
    forces = []
    for owner in ("alice", "bob"):
        force = ForceFactory(campaign=campaign, owner=UserFactory(username=owner))
        unit = UnitFactory(force=force)
        for _ in range(3):
            CharacterFactory(force=force, unit=unit)
        forces.append(force)
    return services.battle_start(
        sides=[SideChoice(force=force) for force in forces], campaign=campaign
    )


@pytest.mark.parametrize("system", [s.key for s in all_systems()])
def test_every_system_auto_resolves_a_battle_and_finishes_it(db, system: str) -> None:
    battle = _battle_of(system)

    services.battle_auto_resolve(battle=battle)
    finish_agreed(battle)

    assert battle.events.count() > 0
    assert services.battle_process(battle_id=battle.pk) is True


def test_a_grits_and_glory_end_of_turn_roll_is_logged_as_the_games_not_a_figures(db) -> None:
    battle = _battle_of("grits_and_glory")
    # A fixed seed: with a fresh one, a side can be wiped out before the game's own roll comes up.
    battle.seed = "end-of-turn-0"
    battle.save(update_fields=["seed"])

    services.battle_auto_resolve(battle=battle)

    game_rolls = battle.events.filter(actor__isnull=True)
    assert game_rolls.exists()
    assert set(game_rolls.values_list("target", flat=True)) == {None}
