"""The league for players: my game on the campaign page, reporting and confirming a result, the
game-night packet link, and the organiser's disputed-results page — for each actor (alice and
bob play each other, olivia organises, charlie is a stranger, and an anonymous visitor)."""

from __future__ import annotations

import pytest

from campaigns.models import Membership
from league.models import Pairing, PairingReport
from league.services import claim_from, pairing_report, round_create_manual

pytestmark = pytest.mark.django_db

ALICE_WINS = {"result": "me", "my_vp": "12", "their_vp": "4"}


@pytest.fixture
def game(muster) -> Pairing:
    """Round 1: alice (home) v bob (away)."""
    alice, bob = (
        Membership.objects.get(campaign=muster.campaign, user=u) for u in (muster.alice, muster.bob)
    )
    round_create_manual(campaign=muster.campaign, pairings=[(alice, bob)])
    return Pairing.objects.get(round__campaign=muster.campaign)


def _report(client, game, **data):
    return client.post(f"/pairings/{game.pk}/report/", {**ALICE_WINS, **data})


def _state(client, muster):
    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()
    return html.split('data-state="', 1)[1].split('"', 1)[0] if 'data-state="' in html else None


# --- my game on the campaign page ------------------------------------------------------------


def test_a_player_sees_their_pairing_the_report_form_and_the_packet(client, muster, game):
    client.force_login(muster.alice)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert "you v <strong>bob</strong>" in html
    assert f'action="/pairings/{game.pk}/report/"' in html
    assert f"/api/pairings/{game.pk}/packet.pdf" in html


@pytest.mark.parametrize("actor", ["olivia"])
def test_someone_who_does_not_play_the_game_gets_no_report_form(client, muster, game, actor):
    client.force_login(getattr(muster, actor))

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert 'data-testid="my-game"' not in html
    assert "/report/" not in html


def test_the_packet_link_downloads_the_pairings_packet(client, muster, game):
    client.force_login(muster.bob)

    response = client.get(f"/api/pairings/{game.pk}/packet.pdf")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"


# --- reporting ----------------------------------------------------------------------------------


def test_a_player_reports_and_waits_for_the_opponent(client, muster, game):
    client.force_login(muster.alice)

    response = _report(client, game, link="https://example.org/brandywine", text="Held the ford.")

    game.refresh_from_db()
    assert response.status_code == 302
    assert game.reported_by_home and game.winner == "HOME" and game.home_vp == 12
    report = PairingReport.objects.get(pairing=game, side="HOME")
    assert (report.link, report.text) == ("https://example.org/brandywine", "Held the ford.")
    assert _state(client, muster) == "waiting"


def test_the_opponent_sees_the_claim_and_confirms_it(client, muster, game):
    pairing_report(
        pairing=game,
        user=muster.alice,
        claim=claim_from({"winner": "HOME", "home_vp": 12, "away_vp": 4}),
    )
    client.force_login(muster.bob)

    page = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()
    client.post(f"/pairings/{game.pk}/report/", {"result": "them", "my_vp": "4", "their_vp": "12"})

    game.refresh_from_db()
    assert "alice won, 12–4 VP" in page
    assert 'data-testid="confirm-result"' in page
    assert game.is_settled and not game.disputed
    assert _state(client, muster) == "agreed"


def test_reporting_the_same_result_twice_is_harmless(client, muster, game):
    client.force_login(muster.alice)

    _report(client, game)
    _report(client, game)

    game.refresh_from_db()
    assert game.reported_by_home and not game.disputed
    assert PairingReport.objects.filter(pairing=game).count() == 1


def test_differing_reports_are_disputed_and_both_players_see_it(client, muster, game):
    client.force_login(muster.alice)
    _report(client, game)
    client.force_login(muster.bob)

    _report(client, game, result="me", my_vp="9", their_vp="8")

    game.refresh_from_db()
    assert game.disputed
    assert _state(client, muster) == "disputed"
    client.force_login(muster.alice)
    assert _state(client, muster) == "disputed"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"my_vp": "-1"}, "my_vp"),
        ({"their_vp": "lots"}, "their_vp"),
        ({"result": "nobody"}, "result"),
        ({"link": "not a link at all"}, "link"),
        ({"text": "x" * 2001}, "text"),
    ],
)
def test_bad_input_is_shown_beside_its_field_and_nothing_is_saved(
    client, muster, game, data, field
):
    client.force_login(muster.alice)

    response = _report(client, game, **data)

    game.refresh_from_db()
    assert response.status_code == 400
    assert f'id="id_{field}-error"' in response.content.decode()
    assert not game.reported_by_home and game.version == 0
    assert not PairingReport.objects.exists()


@pytest.mark.parametrize(("actor", "status"), [("olivia", 403), ("charlie", 404)])
def test_only_the_two_players_report(client, muster, game, actor, status):
    client.force_login(getattr(muster, actor))

    response = _report(client, game)

    game.refresh_from_db()
    assert response.status_code == status
    assert game.version == 0


def test_an_anonymous_visitor_is_sent_to_sign_in(client, muster, game):
    response = _report(client, game)

    assert response["Location"].startswith("/accounts/login/")


def test_a_confirmed_result_can_no_longer_be_reported(client, muster, game):
    from league.services import pairing_confirm

    pairing_confirm(pairing=game, user=muster.olivia, claim=claim_from({"winner": "DRAW"}))
    client.force_login(muster.bob)

    response = _report(client, game)

    game.refresh_from_db()
    assert game.winner == "DRAW"
    assert "can no longer be reported" in response.content.decode()
    assert _state(client, muster) == "confirmed"


# --- the organiser's disputes page -----------------------------------------------------------


@pytest.fixture
def dispute(client, muster, game):
    client.force_login(muster.alice)
    _report(client, game, text="Their cavalry never reached us.")
    client.force_login(muster.bob)
    _report(client, game, result="me", my_vp="9", their_vp="8")
    client.logout()
    game.refresh_from_db()
    return game


def _disputes(muster):
    return f"/campaigns/{muster.campaign.pk}/disputes/"


def test_the_organiser_sees_both_reports_of_a_disputed_game(client, muster, dispute):
    client.force_login(muster.olivia)

    html = client.get(_disputes(muster)).content.decode()

    assert "alice won, 12–4 VP" in html
    assert "bob won, 8–9 VP" in html
    assert "Their cavalry never reached us." in html


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("bob", 403), ("charlie", 404)])
def test_only_organisers_see_the_disputes(client, muster, dispute, actor, status):
    client.force_login(getattr(muster, actor))

    assert client.get(_disputes(muster)).status_code == status


def test_the_organiser_lets_one_report_stand(client, muster, dispute):
    client.force_login(muster.olivia)

    client.post(f"/pairings/{dispute.pk}/settle/", {"stands": "away", "version": dispute.version})

    dispute.refresh_from_db()
    assert dispute.is_settled and not dispute.disputed
    assert (dispute.winner, dispute.home_vp, dispute.away_vp) == ("AWAY", 8, 9)
    assert "No disputed results" in client.get(_disputes(muster)).content.decode()


def test_the_organiser_enters_their_own_result(client, muster, dispute):
    client.force_login(muster.olivia)
    prefix = f"p{dispute.pk}"

    client.post(
        f"/pairings/{dispute.pk}/settle/",
        {
            f"{prefix}-winner": "DRAW",
            f"{prefix}-home_vp": "6",
            f"{prefix}-away_vp": "6",
            f"{prefix}-version": dispute.version,
        },
    )

    dispute.refresh_from_db()
    assert dispute.confirmed_by_organiser and dispute.winner == "DRAW" and dispute.home_vp == 6


def test_a_bad_settlement_is_shown_beside_the_field_and_changes_nothing(client, muster, dispute):
    client.force_login(muster.olivia)
    prefix = f"p{dispute.pk}"
    before = dispute.version

    response = client.post(
        f"/pairings/{dispute.pk}/settle/",
        {
            f"{prefix}-winner": "DRAW",
            f"{prefix}-home_vp": "-3",
            f"{prefix}-away_vp": "6",
            f"{prefix}-version": dispute.version,
        },
    )

    dispute.refresh_from_db()
    assert response.status_code == 400
    assert f'id="id_{prefix}-home_vp-error"' in response.content.decode()
    assert dispute.disputed and dispute.version == before


def test_settling_over_a_newer_version_is_refused(client, muster, dispute):
    client.force_login(muster.olivia)

    response = client.post(
        f"/pairings/{dispute.pk}/settle/",
        {"stands": "home", "version": dispute.version - 1},
        follow=True,
    )

    dispute.refresh_from_db()
    assert "Not saved" in response.content.decode()
    assert dispute.disputed


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("charlie", 404)])
def test_only_organisers_settle(client, muster, dispute, actor, status):
    client.force_login(getattr(muster, actor))

    response = client.post(
        f"/pairings/{dispute.pk}/settle/", {"stands": "home", "version": dispute.version}
    )

    dispute.refresh_from_db()
    assert response.status_code == status
    assert dispute.disputed


# --- home --------------------------------------------------------------------------------------


def test_home_shows_the_next_game_and_a_result_to_confirm(client, muster, game):
    pairing_report(pairing=game, user=muster.alice, claim=claim_from({"winner": "HOME"}))
    client.force_login(muster.bob)

    html = client.get("/").content.decode()

    assert 'data-testid="next-game"' in html and "You v alice" in html
    assert "Confirm the result against alice" in html


def test_home_lists_figures_recovering(client, muster):
    figure = muster.red.characters.first()
    figure.status = "RECOVERING"
    figure.save()
    client.force_login(muster.alice)

    html = client.get("/").content.decode()

    assert f"{figure.name} is recovering" in html


def test_home_labels_forces_with_system_and_campaign(client, muster):
    client.force_login(muster.alice)

    html = client.get("/").content.decode()

    assert "Red — Rencounter — Brandywine" in html


@pytest.mark.parametrize("actor", ["alice", "bob"])
def test_each_player_opens_the_report_page_from_their_own_side(client, muster, game, actor):
    client.force_login(getattr(muster, actor))

    html = client.get(f"/pairings/{game.pk}/report/").content.decode()

    opponent = "bob" if actor == "alice" else "alice"
    assert f"You v {opponent}" in html
    assert f"{opponent} won" in html and "I won" in html


def test_an_anonymous_visitor_is_sent_to_sign_in_from_the_disputes(client, muster, dispute):
    page = client.get(_disputes(muster))
    settle = client.post(f"/pairings/{dispute.pk}/settle/", {"stands": "home"})

    assert page["Location"].startswith("/accounts/login/")
    assert settle["Location"].startswith("/accounts/login/")
    dispute.refresh_from_db()
    assert dispute.disputed


# --- two rounds open at once ---------------------------------------------------------------


@pytest.fixture
def two_rounds(muster, game) -> tuple[Pairing, Pairing]:
    """Round 1 and round 2 both open: alice (home) v bob, then bob (home) v alice."""
    alice, bob = (
        Membership.objects.get(campaign=muster.campaign, user=u) for u in (muster.alice, muster.bob)
    )
    round_create_manual(campaign=muster.campaign, pairings=[(bob, alice)])
    second = Pairing.objects.get(round__campaign=muster.campaign, round__number=2)
    return game, second


def test_the_campaign_page_shows_the_game_of_every_open_round(client, muster, two_rounds):
    first, second = two_rounds
    client.force_login(muster.alice)

    html = client.get(f"/campaigns/{muster.campaign.pk}/").content.decode()

    assert html.count('data-testid="my-game"') == 2
    assert f'id="game-{first.pk}"' in html and f'id="game-{second.pk}"' in html
    assert f'action="/pairings/{second.pk}/report/"' in html
    assert f'id="id_{second.pk}_my_vp"' in html  # each form's ids are its own


def test_a_round_two_game_is_reported_from_the_campaign_page(client, muster, two_rounds):
    first, second = two_rounds
    client.force_login(muster.alice)

    response = client.post(f"/pairings/{second.pk}/report/", ALICE_WINS, follow=True)

    assert response.redirect_chain[-1][0].endswith(f"#game-{second.pk}")
    assert PairingReport.objects.filter(pairing=second, side="AWAY").exists()
    assert not PairingReport.objects.filter(pairing=first).exists()
    assert "Your result against bob in" in response.content.decode()


def test_home_links_each_open_game_to_its_own_report_page(client, muster, two_rounds):
    first, second = two_rounds
    client.force_login(muster.alice)

    html = client.get("/").content.decode()

    assert f'href="/pairings/{first.pk}/report/"' in html
    assert f'href="/pairings/{second.pk}/report/"' in html
    assert f"#game-{second.pk}" in html
    page = client.get(f"/pairings/{second.pk}/report/")
    assert page.status_code == 200 and "Round 2" in page.content.decode()


def test_the_printed_campaign_report_prints_every_round(muster, two_rounds):
    from django.template.loader import render_to_string

    from printing.jobs import campaign_rounds
    from printing.reports import report_context

    context = report_context(
        campaign=muster.campaign.name,
        system="Rencounter",
        standings=None,
        standings_note="",
        rounds=campaign_rounds(muster.campaign),
        battles=[],
        summaries={},
        outcomes={},
        every_battle=False,
    )
    html = render_to_string("printing/report.html", context)

    assert [r["number"] for r in context["rounds"]] == [1, 2]
    assert "Round 1 ·" in html and "Round 2 ·" in html
