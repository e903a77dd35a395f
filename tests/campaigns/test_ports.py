"""The league's ports are filled by the apps above campaigns when they load."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from battles.services.pairings import LEAGUE_BATTLES
from campaigns import ports
from ratings.selectors import seeded_by_rating


def test_the_battles_app_installs_how_a_battle_settles_a_league_game():
    assert ports.battles() is LEAGUE_BATTLES


def test_the_club_rating_installs_the_swiss_seeding():
    assert ports.seeding() is seeded_by_rating


def test_a_port_nobody_installed_says_which_one_is_missing(monkeypatch):
    monkeypatch.setattr(ports, "_installed", {})

    with pytest.raises(ImproperlyConfigured, match="'battles' port"):
        ports.battles()
