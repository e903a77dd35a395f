"""The league's move from `campaigns` to its own app loses no row.

The database is migrated back to the state before the move (campaigns.0009, ratings.0002, no
league app), a season is played there with the models of that time (rounds, pairings, written
reports, a battle that settled a game, an adjustment, the club rating's rows, a permission and
an admin log entry on a round), then it is migrated forward. Every row is still there, linked
as before, and the moved models' content types, with what points at them, are the league's.
Runs on SQLite and on PostgreSQL (`DATABASE_URL`).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import Battle
from league.models import League, LeagueAdjustment, Pairing, PairingReport, ResultEntry, Round
from ratings.models import PlayerRating, RatedGame, RatingPoint

pytestmark = pytest.mark.django_db(transaction=True)

#: The last migrations before the move, and the league app not yet there.
BEFORE = [
    ("campaigns", "0009_campaign_copy_of"),
    ("ratings", "0002_history_is_protected"),
    ("league", None),
]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    """Migrate the test database to `targets`; return the models as they are there."""
    MigrationExecutor(connection).migrate(targets)
    # The state of exactly the migrations now applied (every other app at its latest).
    return MigrationExecutor(connection)._create_project_state(with_applied_migrations=True).apps


def _latest() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _play_a_season(apps: Any) -> dict[str, Any]:
    """Write a played season with the models as they were before the move."""
    get = apps.get_model
    user = get("auth", "User")
    ann, ben, olivia = (user.objects.create(username=n) for n in ("ann", "ben", "olivia"))
    club = get("campaigns", "Club").objects.create(name="Wargames Club", slug="wc")
    campaign = get("campaigns", "Campaign").objects.create(
        club=club, name="Autumn", slug="autumn", system="rencounter", status="ACTIVE"
    )
    member = get("campaigns", "Membership").objects
    home = member.create(user=ann, campaign=campaign, role="PLAYER")
    away = member.create(user=ben, campaign=campaign, role="PLAYER")
    member.create(user=olivia, campaign=campaign, role="ORGANISER")
    get("campaigns", "League").objects.create(campaign=campaign, win_points=4, show_rating=True)
    round_ = get("campaigns", "Round").objects.create(
        campaign=campaign, number=1, kind="SWISS", status="LOCKED"
    )
    battle = get("battles", "Battle").objects.create(
        campaign=campaign, system="rencounter", seed="s", seed_sha256="h", status="PROCESSED"
    )
    pairing = get("campaigns", "Pairing").objects.create(
        round=round_,
        home=home,
        away=away,
        battle=battle,
        winner="HOME",
        home_vp=3,
        away_vp=1,
        reported_by_home=True,
        reported_by_away=True,
        confirmed_by_organiser=True,
        confirmed_by=olivia,
        version=3,
    )
    open_round = get("campaigns", "Round").objects.create(campaign=campaign, number=2)
    bye = get("campaigns", "Pairing").objects.create(round=open_round, home=home, table=2)
    report = get("campaigns", "PairingReport").objects.create(
        pairing=pairing, side="HOME", reporter=ann, text="A hard fight at the ford."
    )
    adjustment = get("campaigns", "LeagueAdjustment").objects.create(
        campaign=campaign, player=away, points=-1, reason="Late list", created_by=olivia
    )
    rated = get("ratings", "RatedGame").objects.create(
        club=club, pairing=pairing, home=ann, away=ben, score=1.0
    )
    get("ratings", "RatingPoint").objects.create(
        game=rated, user=ann, rating=1600, deviation=300, volatility=0.06
    )
    get("ratings", "PlayerRating").objects.create(club=club, user=ann, rating=1600, games=1)
    return {
        "campaign": campaign.pk,
        "rounds": (round_.pk, open_round.pk),
        "pairing": pairing.pk,
        "bye": bye.pk,
        "battle": battle.pk,
        "report": report.pk,
        "adjustment": adjustment.pk,
        "rated": rated.pk,
        "members": (home.pk, away.pk),
        "users": (ann.pk, ben.pk, olivia.pk),
    }


def _mark_the_round_in_the_admin(apps: Any, played: dict[str, Any]) -> dict[str, int]:
    """A content type, a permission and an admin log entry on the round, as a site that ran
    before the move has them (made after its migrations, by `migrate` and the admin)."""
    types = apps.get_model("contenttypes", "ContentType").objects
    round_type, _ = types.get_or_create(app_label="campaigns", model="round")
    permission = apps.get_model("auth", "Permission").objects.create(
        content_type=round_type, codename="lock_round_for_test", name="Can lock a round (test)"
    )
    entry = apps.get_model("admin", "LogEntry").objects.create(
        user_id=played["users"][2],
        content_type=round_type,
        object_id=str(played["rounds"][0]),
        object_repr="Round 1",
        action_flag=2,
    )
    return {"type": round_type.pk, "permission": permission.pk, "entry": entry.pk}


def test_the_move_to_the_league_app_keeps_every_row_and_link():
    latest = _latest()
    old = _migrate(BEFORE)
    played = _play_a_season(old)
    admin = _mark_the_round_in_the_admin(old, played)

    _migrate(latest)

    pairing = Pairing.objects.select_related("round__campaign", "home", "away", "battle").get(
        pk=played["pairing"]
    )
    assert pairing.round.campaign_id == played["campaign"]
    assert (pairing.home_id, pairing.away_id) == played["members"]
    assert pairing.battle == Battle.objects.get(pk=played["battle"])
    assert (pairing.winner, pairing.home_vp, pairing.away_vp, pairing.version) == ("HOME", 3, 1, 3)
    assert pairing.confirmed_by_id == played["users"][2]
    assert pairing.is_settled
    assert Pairing.objects.get(pk=played["bye"]).is_bye
    # A result written before the record of results existed is kept like one written after.
    entry = ResultEntry.objects.get(pairing=pairing)
    assert (entry.version, entry.result["winner"], entry.by_id) == (3, "HOME", played["users"][2])
    assert not ResultEntry.objects.filter(pairing_id=played["bye"]).exists()
    assert sorted(Round.objects.values_list("pk", flat=True)) == sorted(played["rounds"])
    assert League.objects.get(campaign_id=played["campaign"]).win_points == 4
    report = PairingReport.objects.get(pk=played["report"])
    assert (report.pairing_id, report.text) == (pairing.pk, "A hard fight at the ford.")
    assert LeagueAdjustment.objects.get(pk=played["adjustment"]).player_id == played["members"][1]
    rated = RatedGame.objects.get(pk=played["rated"])
    assert rated.pairing == pairing and pairing.rated_game == rated
    assert RatingPoint.objects.filter(game=rated).count() == 1
    assert PlayerRating.objects.get(user_id=played["users"][0]).games == 1
    _the_admin_rows_are_the_leagues(admin)


def _the_admin_rows_are_the_leagues(admin: dict[str, int]) -> None:
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    round_type = ContentType.objects.get(pk=admin["type"])
    assert (round_type.app_label, round_type.model) == ("league", "round")
    assert round_type.model_class() is Round
    assert not ContentType.objects.filter(app_label="campaigns", model="round").exists()
    assert Permission.objects.get(pk=admin["permission"]).content_type_id == round_type.pk
    assert LogEntry.objects.get(pk=admin["entry"]).get_edited_object().number == 1
