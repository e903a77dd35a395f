"""Standings from the database: the hand-worked six-player example of test_standings.py,
entered as an organiser would (a result corrected, adjustments with reasons), then read back
from the selector, the CSV and the API."""

from __future__ import annotations

import csv
import io

import pytest

from league import selectors, services
from tests.league.league_helpers import make_league, pairing_between, settle

pytestmark = pytest.mark.django_db

# round, home, away, result (the same games as the pure example; see test_standings.py)
GAMES = [
    (
        1,
        "ann",
        "ben",
        dict(
            winner="HOME",
            home_vp=10,
            away_vp=4,
            home_figures_lost=1,
            away_figures_lost=5,
            major_victory=True,
        ),
    ),
    (
        1,
        "cat",
        "dan",
        dict(winner="DRAW", home_vp=6, away_vp=6, home_figures_lost=3, away_figures_lost=3),
    ),
    (
        1,
        "eve",
        "fay",
        dict(winner="HOME", home_vp=8, away_vp=5, home_figures_lost=2, away_figures_lost=4),
    ),
    (
        2,
        "ann",
        "cat",
        dict(winner="DRAW", home_vp=5, away_vp=5, home_figures_lost=2, away_figures_lost=2),
    ),
    (
        2,
        "ben",
        "eve",
        dict(winner="HOME", home_vp=9, away_vp=3, home_figures_lost=1, away_figures_lost=4),
    ),
    (
        2,
        "dan",
        "fay",
        dict(winner="AWAY", home_vp=6, away_vp=7, home_figures_lost=4, away_figures_lost=1),
    ),
    (
        3,
        "ben",
        "cat",
        dict(winner="AWAY", home_vp=4, away_vp=7, home_figures_lost=4, away_figures_lost=1),
    ),
    (
        3,
        "ann",
        "fay",
        dict(winner="AWAY", home_vp=2, away_vp=6, home_figures_lost=4, away_figures_lost=2),
    ),
    (
        3,
        "dan",
        "eve",
        dict(winner="HOME", home_vp=8, away_vp=3, home_figures_lost=1, away_figures_lost=5),
    ),
]
CORRECTION = (
    2,
    "dan",
    "fay",
    dict(winner="HOME", home_vp=7, away_vp=6, home_figures_lost=2, away_figures_lost=3),
)


@pytest.fixture
def season():
    """The hand-worked season entered through the services, with the correction last."""
    campaign, olivia, p = make_league(["ann", "ben", "cat", "dan", "eve", "fay"])
    services.league_update(campaign=campaign, major_victory_bonus=1)
    for number in (1, 2, 3):
        games = [(p[h], p[a]) for n, h, a, _ in GAMES if n == number]
        services.round_create_manual(campaign=campaign, pairings=games)
    for number, home, away, result in [*GAMES, CORRECTION]:
        settle(pairing_between(campaign, number, p[home], p[away]), olivia, **result)
    services.adjustment_create(player=p["ben"], points=2, reason="painted force", user=olivia)
    services.adjustment_create(player=p["dan"], points=-1, reason="late army list", user=olivia)
    return campaign, olivia, p


def test_the_database_table_matches_the_hand_worked_example(season):
    campaign, _, _ = season

    table = selectors.league_standings(campaign)

    assert [(r.rank, table.names[r.player], r.separated_by) for r in table.rows] == [
        (1, "dan", None),
        (2, "cat", "points"),
        (3, "ann", "vp_difference"),
        (4, "ben", "head_to_head"),
        (5, "eve", "points"),
        (6, "fay", "head_to_head"),
    ]
    dan = table.rows[0]
    assert (dan.played, dan.won, dan.drawn, dan.lost, dan.points) == (3, 2, 1, 0, 6)
    assert (dan.vp_for, dan.vp_against, dan.figures_lost, dan.strength_of_schedule) == (
        21,
        15,
        6,
        11,
    )
    assert [(a.points, a.reason) for a in dan.adjustments] == [(-1, "late army list")]


def test_the_csv_export_lists_every_player_with_the_adjustment_reasons(season):
    campaign, _, _ = season

    rows = list(csv.DictReader(io.StringIO(selectors.league_standings(campaign).csv())))

    assert [r["Player"] for r in rows] == ["dan", "cat", "ann", "ben", "eve", "fay"]
    assert rows[3]["Adjustments"] == "painted force (+2)"
    assert rows[2]["Bonus points"] == "1"


def test_the_api_standings_follow_the_same_table(season, as_user):
    campaign, _, p = season

    body = as_user(p["eve"].user).get(f"/api/campaigns/{campaign.pk}/standings/").json()

    assert [row["name"] for row in body] == ["dan", "cat", "ann", "ben", "eve", "fay"]
    assert body[0]["adjustments"] == [{"points": -1, "reason": "late army list"}]
    assert body[2]["separated_by"] == "vp_difference"
