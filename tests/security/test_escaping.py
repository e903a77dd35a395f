"""No user text is rendered unescaped: a character named `<script>alert(1)</script>` in a force
named `</div> Company` goes through every page, the admin and every PDF.

Pages must show the names escaped (`&lt;script&gt;...`) and never raw; PDFs must print them
literally (pdfplumber finds the characters `<script>`), which they would not if WeasyPrint had
read them as markup.
"""

from __future__ import annotations

import io

import pdfplumber
import pytest
from django.urls import reverse

from battles.models import BattleStatus
from battles.services import SideChoice, battle_auto_resolve, battle_start
from campaigns.models import Role
from tests.consent import finish_agreed
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
DIV = "</div>"
FORCE = f"{DIV} Company"
RAW = (SCRIPT.encode(), b"</div> Company")
ESCAPED = b"&lt;script&gt;alert(1)&lt;/script&gt;"


@pytest.fixture
def hostile(db, django_capture_on_commit_callbacks):
    """A campaign whose every user-named thing is markup."""
    alice, rival = UserFactory(username="alice"), UserFactory(username="rival")
    campaign = CampaignFactory(name=f"{SCRIPT} war")
    for user in (alice, rival):
        MembershipFactory(user=user, campaign=campaign, role=Role.ORGANISER)
    force = ForceFactory(owner=alice, campaign=campaign, name=FORCE, faction=DIV)
    foes = ForceFactory(owner=rival, campaign=campaign, name="Foes")
    unit = UnitFactory(force=force, name=DIV)
    character = CharacterFactory(force=force, unit=unit, name=SCRIPT, rank=DIV, notes=SCRIPT)
    CharacterFactory(force=foes, name="Foe")
    sides = [SideChoice(force=force), SideChoice(force=foes)]
    playing = battle_start(sides=sides, campaign=campaign, scenario=SCRIPT, user=alice)
    done = battle_start(sides=sides, campaign=campaign, scenario=DIV, user=alice)
    with django_capture_on_commit_callbacks(execute=True):  # the post-battle task, inline
        finish_agreed(battle_auto_resolve(battle=done, user=alice))
    done.refresh_from_db()
    assert done.status == BattleStatus.PROCESSED
    return {
        "alice": alice,
        "campaign": campaign,
        "force": force,
        "character": character,
        "playing": playing,
        "done": done,
    }


def _pages(h):
    playing, done = h["playing"].pk, h["done"].pk
    return [
        reverse("home"),
        reverse("odds"),
        reverse("campaign-page", args=[h["campaign"].pk]),
        reverse("force-page", args=[h["force"].pk]),
        reverse("character-page", args=[h["character"].pk]),
        reverse("battle-new") + f"?campaign={h['campaign'].pk}",
        reverse("battle-page", args=[playing]),
        reverse("battle-form", args=[playing]),
        reverse("battle-after", args=[done]),
        reverse("battle-progress", args=[done]),
        f"/admin/rosters/character/{h['character'].pk}/change/",
        "/admin/rosters/character/",
        f"/admin/rosters/force/{h['force'].pk}/change/",
        f"/admin/battles/battle/{done}/change/",
        f"/admin/campaigns/campaign/{h['campaign'].pk}/change/",
    ]


def test_every_page_shows_user_text_escaped_and_never_as_markup(client, hostile):
    hostile["alice"].is_staff = hostile["alice"].is_superuser = True
    hostile["alice"].save()
    client.force_login(hostile["alice"])
    shown_escaped = {}

    for url in _pages(hostile):
        response = client.get(url)
        assert response.status_code == 200, url
        assert not [raw for raw in RAW if raw in response.content], url
        shown_escaped[url] = ESCAPED in response.content

    named = [
        reverse(n, args=[hostile[k].pk])
        for n, k in (("campaign-page", "campaign"), ("character-page", "character"))
    ]
    assert all(shown_escaped[url] for url in named), shown_escaped


def test_a_refused_csv_import_echoes_the_hostile_name_escaped(client, hostile):
    client.force_login(hostile["alice"])
    upload = io.BytesIO(f"name,status\n{SCRIPT},NOT-A-STATUS\n".encode())
    upload.name = "characters.csv"

    response = client.post(reverse("force-import", args=[hostile["force"].pk]), {"file": upload})

    assert response.status_code in (200, 302, 400)
    assert SCRIPT.encode() not in response.content


def _text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return "\n".join(page.extract_text() or "" for page in document.pages)


def _pdf_urls(h):
    force = h["force"].pk
    return [
        # Every status: the battle may have killed or wounded the hostile figure, and labels
        # and cards print the active ones unless asked (his fate is the dice's, not ours).
        f"/api/forces/{force}/labels.pdf?include=recovering,dead,retired,captured",
        f"/api/forces/{force}/cards.pdf?include=recovering,dead,retired,captured",
        f"/api/forces/{force}/roster.pdf",
        f"/api/systems/rencounter/reference.pdf?campaign={h['campaign'].pk}",
    ]


def test_every_pdf_prints_user_text_literally(api_client, hostile):
    api_client.force_authenticate(hostile["alice"])
    texts = {}

    for url in _pdf_urls(hostile):
        response = api_client.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        assert response["Content-Type"] == "application/pdf"
        texts[url] = _text(response.content)

    labels, cards, roster, reference = texts.values()
    for text in (labels, cards, roster):
        assert "<script>" in text.replace(" ", "").replace("\n", "")
    assert "</div>" in roster.replace(" ", "")
    assert "<script>" in reference.replace(" ", "")  # the campaign's name heads the sheet


@pytest.mark.parametrize("kind", ["labels", "cards"])
def test_posted_previews_print_user_text_literally(api_client, hostile, kind):
    api_client.force_authenticate(hostile["alice"])
    body = {"system": "rencounter", "figures": [{"name": SCRIPT, "rank": DIV, "unit": DIV}]}

    response = api_client.post(f"/api/print/{kind}.pdf", body, format="json")

    assert response.status_code == 200, response.content[:300]
    assert "<script>" in _text(response.content).replace(" ", "").replace("\n", "")
