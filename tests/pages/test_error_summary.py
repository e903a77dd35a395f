"""Errors where the eye is: a refused form shows a summary at the top of the page naming the
first bad field to focus, and saving a result or abandoning a battle says what happened.

alice plays Red against bob's Blue in Brandywine (tests/pages/conftest.py).
"""

from __future__ import annotations

import re

import pytest
from django import forms

from battles.services import SideChoice, battle_start
from campaigns.models import Membership
from league.models import Pairing
from league.services import round_create_manual
from pages.errors import ErrorLine, error_summary

pytestmark = pytest.mark.django_db


def _summary(html: str) -> str:
    found = re.search(r'<div class="error-summary".*?</div>', html, re.S)
    assert found is not None, "no error summary on the page"
    return found.group(0)


class _Form(forms.Form):
    name = forms.CharField()
    size = forms.IntegerField()


def test_the_summary_lists_each_bad_field_and_focuses_the_first() -> None:
    form = _Form({"name": "", "size": "lots"})
    form.is_valid()

    summary = error_summary(form)

    assert summary is not None
    assert summary.lines == (
        ErrorLine("Name: This field is required.", "id_name"),
        ErrorLine("Size: Enter a whole number.", "id_size"),
    )
    assert summary.focus == "id_name"


def test_a_form_that_was_not_refused_has_no_summary() -> None:
    assert error_summary(_Form(), []) is None
    bound = _Form({"name": "x", "size": "3"})
    assert bound.is_valid() and error_summary(bound) is None


def test_a_refused_report_shows_the_summary_on_top_with_the_focus_on_the_bad_field(client, muster):
    alice, bob = (
        Membership.objects.get(campaign=muster.campaign, user=u) for u in (muster.alice, muster.bob)
    )
    round_create_manual(campaign=muster.campaign, pairings=[(alice, bob)])
    game = Pairing.objects.get(round__campaign=muster.campaign)
    client.force_login(muster.alice)

    response = client.post(
        f"/pairings/{game.pk}/report/", {"result": "me", "my_vp": "12", "their_vp": "lots"}
    )

    html = response.content.decode()
    summary = _summary(html)
    assert response.status_code == 400
    assert 'data-focus="id_their_vp"' in summary
    assert 'href="#id_their_vp"' in summary
    assert html.index("error-summary") < html.index('data-testid="report-form"')
    assert "pages/errors.js" in html


def test_a_refused_check_at_the_table_is_summarised_on_top(client, muster):
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    actor = battle.figures.filter(side__index=0).first()
    client.force_login(muster.alice)

    response = client.post(
        f"/battles/{battle.pk}/check/",
        {"actor": actor.pk, "check": "fire", "skill": "99", "key": "k"},
    )

    summary = _summary(response.content.decode())
    assert response.status_code == 400
    assert 'data-focus="param-skill"' in summary


def test_saving_a_result_and_abandoning_a_battle_say_what_happened(client, muster):
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )
    red, blue = battle.sides.order_by("index")
    client.force_login(muster.alice)

    saved = client.post(
        f"/battles/{battle.pk}/result/",
        {f"result-{red.pk}": "WIN", f"vp-{red.pk}": "3", f"result-{blue.pk}": "LOSS"},
        follow=True,
    )
    assert "Result saved: Red: Win (3 VP) · Blue: Loss (0 VP)." in saved.content.decode()

    gone = client.post(f"/battles/{battle.pk}/delete/", follow=True)
    assert f"{battle} was abandoned: the battle and its log are deleted." in gone.content.decode()
