"""The table's forms: a double tap is applied once, friendly fire refused in place, abandon."""

from __future__ import annotations

import re

import pytest

from battles.models import Battle
from tests.pages.test_battle_pages import _battle, _fire

pytestmark = pytest.mark.django_db


def _key(html: str, form: str) -> str:
    return re.search(rf'name="key" value="([0-9a-f]+-{form})"', html).group(1)


def test_a_check_posted_twice_with_its_form_key_is_resolved_once(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)
    key = _key(client.get(f"/battles/{battle.pk}/").content.decode(), "check")
    red, blue = battle.figures.get(name="Red man 1"), battle.figures.get(name="Blue man 1")

    for _ in range(2):
        response = client.post(
            f"/battles/{battle.pk}/check/", {**_fire(battle, red, blue), "key": key}
        )
        assert response.status_code == 302

    assert battle.events.count() == 1


def test_the_check_redirect_lands_on_the_result(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)
    red, blue = battle.figures.get(name="Red man 1"), battle.figures.get(name="Blue man 1")

    response = client.post(f"/battles/{battle.pk}/check/", _fire(battle, red, blue))

    assert response.url.endswith("#result")


def test_shooting_a_comrade_is_refused_next_to_the_button(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)
    red, comrade = battle.figures.get(name="Red man 1"), battle.figures.get(name="Red man 2")

    response = client.post(f"/battles/{battle.pk}/check/", _fire(battle, red, comrade))

    assert response.status_code == 400
    html = response.content.decode()
    assert "Red man 2 is on Red man 1&#x27;s own side" in html
    assert html.index('id="problems"') > html.index('data-testid="resolve"')
    assert not battle.events.exists()


def test_the_creator_abandons_a_battle_from_the_table(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)
    assert 'data-testid="delete-battle"' in client.get(f"/battles/{battle.pk}/").content.decode()

    response = client.post(f"/battles/{battle.pk}/delete/")

    assert response.status_code == 302
    assert response.url == f"/campaigns/{muster.campaign.pk}/"
    assert not Battle.objects.filter(pk=battle.pk).exists()


def test_the_other_player_may_not_delete_the_battle(client, muster):
    battle = _battle(muster)
    client.force_login(muster.bob)
    assert (
        'data-testid="delete-battle"' not in client.get(f"/battles/{battle.pk}/").content.decode()
    )

    response = client.post(f"/battles/{battle.pk}/delete/")

    assert response.status_code == 403
    assert Battle.objects.filter(pk=battle.pk).exists()
