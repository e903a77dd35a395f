"""The after-battle page: per side, casualties, wounds and their aftermath, kills; in words."""

from __future__ import annotations

import re

import pytest

from battles.services import battle_process, battle_record_result
from tests.consent import finish_agreed
from tests.pages.test_battle_pages import _battle

pytestmark = pytest.mark.django_db


def _fought(muster):
    battle = _battle(muster)
    pk = {f.name: f.pk for f in battle.figures.all()}
    battle_record_result(
        battle=battle,
        figures=[
            {"figure": pk["Red man 1"], "kills": 1, "skills_used": ["fire"]},
            {"figure": pk["Blue man 1"], "status": "dead"},
            {"figure": pk["Blue man 2"], "wounds": 2, "status": "wounded"},
        ],
        sides=[
            {"side": side.pk, "result": result}
            for side, result in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
        ],
    )
    finish_agreed(battle)
    battle_process(battle_id=battle.pk)
    return battle


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_killed_figure_is_named_with_his_force_under_his_side(client, muster):
    battle = _fought(muster)
    client.force_login(muster.alice)

    html = client.get(f"/battles/{battle.pk}/after/").content.decode()

    sides = html.split('data-testid="side-report"')
    assert len(sides) == 3
    assert "Blue man 1 (Blue) — killed" in _text(sides[2])
    assert "No casualties." in _text(sides[1])


def test_wounds_list_their_aftermath_and_kills_are_counted(client, muster):
    battle = _fought(muster)
    client.force_login(muster.alice)

    text = _text(client.get(f"/battles/{battle.pk}/after/").content.decode())

    assert "Blue man 2 (Blue) — 2 wounds taken Blue man 2's wound aftermath" in text.replace(
        "&#x27;", "'"
    )
    assert "Red man 1 (Red) — 1 kill" in text


def test_no_raw_key_is_left_on_the_after_page(client, muster):
    battle = _fought(muster)
    client.force_login(muster.alice)

    html = client.get(f"/battles/{battle.pk}/after/").content.decode()
    main = _text(html.split('id="main"', 1)[1].split("<footer", 1)[0])

    assert not re.search(r"\b[a-z]+_[a-z_0-9]+\b", main), re.search(r"\b[a-z]+_[a-z_0-9]+\b", main)
    assert "=True" not in main and "permanent 0" not in main
