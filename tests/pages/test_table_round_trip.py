"""A table action in one round trip: htmx's post is answered with the table it swaps in.

Without JavaScript a form post still redirects to the table (its choices in the address,
scrolled to #result). htmx posted the same forms, followed the redirect and picked `#table`
out of the whole page; now the post answers with `#table` alone, which must be exactly what
that redirect's page held. alice plays Red, bob plays Blue, olivia organises
(tests/battles/conftest.py).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest

from battles import services
from battles.models import Battle
from battles.selectors import battle_access, rules_for_battle, with_access
from battles.services.turns import draw_refusal
from pages.battles import _draw_refusal
from pages.selectors import EVENT_LOG_LENGTH, battle_table, battle_with_sides
from tests.battles.conftest import Cast, make_cast, start_battle

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def cast(db: Any) -> Cast:
    return make_cast()


def _same(html: str) -> str:
    """The page with what differs on every render (CSRF tokens, the forms' keys) masked."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", html)
    return re.sub(r'name="key" value="[0-9a-f]{32}', "key", html)


def _figures(battle: Battle) -> tuple[Any, Any]:
    red, blue = (battle.figures.filter(side__index=i).order_by("pk").first() for i in (0, 1))
    return red, blue


def _fire(red: Any, blue: Any, **extra: Any) -> dict[str, Any]:
    return {"actor": red.pk, "check": "fire", "against": blue.pk, "skill": "7", **extra}


def _redirected_table(client: Any, battle: Battle, data: dict[str, Any]) -> str:
    """The table htmx fetched after the redirect, and picked #table from."""
    kept = {k: data[k] for k in ("actor", "check", "against") if data.get(k)}
    page = client.get(f"/battles/{battle.pk}/?{urlencode(kept)}").content.decode()
    start = page.index('<div id="table"')
    return page[start : page.index("</main>", start)].rstrip()


def _actions(battle: Battle) -> list[tuple[str, dict[str, Any]]]:
    red, blue = _figures(battle)
    return [
        ("activation", {"method": "cards", "key": "a1"}),
        ("check", _fire(red, blue, key="c1")),
        ("draw", {"key": "d1"}),
        ("adjust", {"figure": blue.pk, "adjust": "wounds:add", "key": "j1", **_fire(red, blue)}),
        ("void", _fire(red, blue, key="v1")),
    ]


def test_each_action_answers_htmx_with_the_table_the_redirect_named(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    client.force_login(cast.olivia)  # the referee: every action is hers to make

    for action, data in _actions(battle):
        answer = client.post(f"/battles/{battle.pk}/{action}/", data, **HX)

        assert answer.status_code == 200, action
        assert "HX-Request" in answer["Vary"]
        fragment = answer.content.decode()
        assert fragment.startswith('<div id="table"') and "<html" not in fragment
        assert _same(fragment.rstrip()) == _same(_redirected_table(client, battle, data)), action
    assert battle.events.count() == 5  # start, check, draw, adjust, and the void of the adjust


def test_without_javascript_an_action_still_redirects_to_the_result(client, cast: Cast) -> None:
    battle = start_battle(cast)
    red, blue = _figures(battle)
    client.force_login(cast.alice)

    answer = client.post(f"/battles/{battle.pk}/check/", _fire(red, blue, key="c1"))

    assert answer.status_code == 302
    assert answer["Location"] == (
        f"/battles/{battle.pk}/?actor={red.pk}&check=fire&against={blue.pk}#result"
    )


def test_a_refused_action_answers_htmx_with_the_table_and_its_problems(client, cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)
    client.force_login(cast.bob)

    answer = client.post(f"/battles/{battle.pk}/check/", _fire(red, blue, key="c1"), **HX)

    fragment = answer.content.decode()
    assert answer.status_code == 200 and fragment.startswith('<div id="table"')
    assert "Red 1 is alice&#x27;s figure" in fragment
    assert battle.events.count() == 0


def test_htmx_gets_the_table_alone_and_a_browser_the_page_around_it(client, cast: Cast) -> None:
    battle = start_battle(cast)
    client.force_login(cast.alice)

    part = client.get(f"/battles/{battle.pk}/", **HX)
    page = client.get(f"/battles/{battle.pk}/")
    restored = client.get(f"/battles/{battle.pk}/", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HX)

    assert "HX-Request" in part["Vary"] and "HX-Request" in page["Vary"]
    assert _same(part.content.decode()).rstrip() in _same(page.content.decode())
    assert part.content.decode().startswith('<div id="table"')
    assert 'id="live-status"' in page.content.decode()  # the stream starts from the page
    assert restored.content.decode().startswith("<!doctype html>")


@pytest.mark.parametrize("checks_after", [0, EVENT_LOG_LENGTH])
def test_the_page_says_whose_draw_it_is_as_the_service_would(cast: Cast, checks_after) -> None:
    """The page reads the turn from the log it shows; past its 30 events, from the battle."""
    battle = start_battle(cast, one_phone=False)
    services.battle_activation_start(battle=battle, method="dice_counters", user=cast.olivia)
    red, _ = _figures(battle)
    seen = set()
    for _ in range(4):
        services.battle_activation_draw(battle=battle, user=cast.olivia)  # the referee
        for _ in range(checks_after):
            services.battle_resolve(
                battle=battle,
                check="action",
                actor=red.pk,
                params={"experience": 4},
                user=cast.alice,
            )
        for user in (cast.alice, cast.bob, cast.olivia, cast.dave):
            loaded = battle_with_sides(with_access(Battle.objects.filter(pk=battle.pk), user))
            fresh = loaded.get()
            table = battle_table(fresh, rules_for_battle(fresh))
            said = _draw_refusal(table, battle_access(fresh, user))

            assert said == draw_refusal(fresh, user), user.username
            seen.add(bool(said))
    assert seen == {True, False}  # someone waited, someone drew
