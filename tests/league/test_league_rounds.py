"""League rounds through the services: round robin, Swiss, by hand, swaps, late joiners,
drop-outs, locking, settings."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league import services
from league.errors import LeagueConflict
from league.models import Pairing, Round, RoundKind
from tests.league.league_helpers import make_league, pairing_between, settle, settle_round

pytestmark = pytest.mark.django_db
NAMES = ["ann", "ben", "cat", "dan", "eve"]


def games_of(campaign) -> list[Pairing]:
    return list(Pairing.objects.filter(round__campaign=campaign, away__isnull=False))


def test_a_round_robin_for_five_schedules_every_pair_once_with_one_bye_each():
    campaign, _, players = make_league(NAMES)

    rounds = services.round_robin_generate(campaign=campaign)

    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    pairs = Counter(frozenset((p.home_id, p.away_id)) for p in games_of(campaign))
    expected = {frozenset((a.pk, b.pk)) for a, b in combinations(players.values(), 2)}
    assert set(pairs) == expected and set(pairs.values()) == {1}
    byes = Counter(p.home_id for p in Pairing.objects.filter(away__isnull=True))
    assert byes == Counter({m.pk: 1 for m in players.values()})


def test_a_round_robin_is_refused_once_the_league_has_rounds():
    campaign, _, _ = make_league(NAMES)
    services.round_robin_generate(campaign=campaign)

    with pytest.raises(ValidationError, match="already has rounds"):
        services.round_robin_generate(campaign=campaign)


def test_swiss_rounds_pair_winners_together_and_never_repeat_a_game():
    campaign, olivia, _players = make_league(["ann", "ben", "cat", "dan", "eve", "fay"])

    for number in (1, 2, 3):
        services.swiss_round_generate(campaign=campaign)
        settle_round(campaign, number, olivia)

    pairs = [frozenset((p.home_id, p.away_id)) for p in games_of(campaign)]
    assert len(pairs) == len(set(pairs)) == 9
    round_two = Round.objects.get(campaign=campaign, number=2)
    assert round_two.kind == RoundKind.SWISS
    # after round 1 the three winners have 3 points: two of them meet in round 2
    winners = {p.home_id for p in games_of(campaign) if p.round.number == 1}
    assert any({p.home_id, p.away_id} <= winners for p in round_two.pairings.all())


def test_the_next_swiss_round_waits_for_every_result():
    campaign, _, _ = make_league(["ann", "ben", "cat", "dan"])
    services.swiss_round_generate(campaign=campaign)

    with pytest.raises(ValidationError, match="no settled result yet"):
        services.swiss_round_generate(campaign=campaign)


def test_a_swiss_round_that_cannot_be_paired_says_why():
    campaign, olivia, _ = make_league(["ann", "ben"])
    services.swiss_round_generate(campaign=campaign)
    settle_round(campaign, 1, olivia)

    with pytest.raises(ValidationError) as error:
        services.swiss_round_generate(campaign=campaign)

    assert "cannot pair round 2" in str(error.value)
    assert Round.objects.filter(campaign=campaign).count() == 1


def test_a_hand_made_rematch_is_stored_with_a_warning():
    campaign, _olivia, p = make_league(["ann", "ben", "cat", "dan"])
    services.round_create_manual(
        campaign=campaign, pairings=[(p["ann"], p["ben"]), (p["cat"], p["dan"])]
    )

    made = services.round_create_manual(
        campaign=campaign, pairings=[(p["ben"], p["ann"]), (p["dan"], p["cat"])]
    )

    assert made.round.number == 2 and made.round.pairings.count() == 2
    rematches = [w.message for w in made.warnings if w.kind == "rematch"]
    assert "ben and ann already met in round 1" in rematches


def test_swapping_two_players_moves_them_and_warns_on_a_rematch():
    campaign, _, p = make_league(["ann", "ben", "cat", "dan"])
    services.round_create_manual(
        campaign=campaign, pairings=[(p["ann"], p["ben"]), (p["cat"], p["dan"])]
    )
    second = services.round_create_manual(
        campaign=campaign, pairings=[(p["ann"], p["cat"]), (p["ben"], p["dan"])]
    ).round

    warnings = services.round_swap_players(round_=second, first=p["cat"], second=p["ben"])

    pairs = {frozenset((x.home_id, x.away_id)) for x in second.pairings.all()}
    assert pairs == {frozenset((p["ann"].pk, p["ben"].pk)), frozenset((p["cat"].pk, p["dan"].pk))}
    assert {w.kind for w in warnings} == {"rematch", "over_max_games"}


def test_a_player_cannot_be_paired_twice_in_a_round_by_the_database():
    campaign, _, p = make_league(["ann", "ben", "cat"])
    round_ = Round.objects.create(campaign=campaign, number=1)
    Pairing.objects.create(round=round_, home=p["ann"], away=p["ben"])

    with pytest.raises(IntegrityError), transaction.atomic():
        Pairing.objects.create(round=round_, home=p["ann"], away=p["cat"], table=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pairing.objects.create(round=round_, home=p["cat"], away=p["cat"], table=3)


def test_a_drop_out_forfeits_their_open_games_to_the_opponents():
    campaign, olivia, p = make_league(["ann", "ben", "cat", "dan"])
    services.round_robin_generate(campaign=campaign)
    settle_round(campaign, 1, olivia)

    forfeits = services.membership_withdraw(membership=p["dan"], from_round=2, user=olivia)

    assert len(forfeits) == 2
    assert all(f.confirmed_by_organiser for f in forfeits)
    assert all((f.home_no_show if f.home_id == p["dan"].pk else f.away_no_show) for f in forfeits)
    assert all(f.winner == ("AWAY" if f.home_id == p["dan"].pk else "HOME") for f in forfeits)


def test_a_late_joiner_takes_the_byes_and_starts_with_the_leagues_score():
    campaign, olivia, _p = make_league(["ann", "ben", "cat"])
    services.league_update(campaign=campaign, late_joiner_points=2)
    services.round_robin_generate(campaign=campaign)
    settle_round(campaign, 1, olivia)
    services.round_lock(round_=Round.objects.get(campaign=campaign, number=1))
    newcomer = type(olivia).objects.create(username="zed")

    joined = services.league_join(campaign=campaign, user=newcomer, from_round=2, by=olivia)

    seated = Pairing.objects.filter(away=joined.membership) | Pairing.objects.filter(
        home=joined.membership
    )
    assert sorted(x.round.number for x in seated) == [2, 3]
    assert len(joined.catch_up) == 1  # the one player who had the bye in round 1
    assert joined.membership.adjustments.get().points == 2


def test_a_round_with_unsettled_games_cannot_be_locked():
    campaign, olivia, p = make_league(["ann", "ben", "cat", "dan"])
    services.round_create_manual(
        campaign=campaign, pairings=[(p["ann"], p["ben"]), (p["cat"], p["dan"])]
    )
    round_ = Round.objects.get(campaign=campaign)
    settle(pairing_between(campaign, 1, p["ann"], p["ben"]), olivia, winner="DRAW")

    with pytest.raises(ValidationError, match="1 game"):
        services.round_lock(round_=round_)
    settle(pairing_between(campaign, 1, p["cat"], p["dan"]), olivia, winner="AWAY")
    services.round_lock(round_=round_)
    with pytest.raises(LeagueConflict):
        services.round_lock(round_=round_)


def test_league_settings_that_make_no_sense_are_refused_naming_the_setting():
    campaign, _, _ = make_league(NAMES)

    with pytest.raises(ValidationError) as error:
        services.league_update(campaign=campaign, win_points=1, draw_points=2)

    assert "draw_points" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.league_update(campaign=campaign, tie_breakers=["coin_toss"])
    assert "tie_breakers" in error.value.message_dict
