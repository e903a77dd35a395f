"""The odds page (/odds/): the engine's exact distribution, typed inputs and errors in place."""

from __future__ import annotations

import pytest
from django.test import Client

from rules.system import all_systems, get_system

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    return [part.split('"')[0] for part in html.split('data-outcome="')[1:]]


def test_the_odds_page_opens_on_the_first_check_of_the_first_system(client: Client):
    first = all_systems()[0]

    response = client.get("/odds/")

    assert response.status_code == 200
    assert _rows(response.content.decode()) == list(next(iter(first.checks.values())).outcomes)


def test_the_odds_page_shows_the_engines_exact_fractions(client: Client):
    check = get_system("grits_and_glory").check("trait")
    expected = check.odds({"die": 8, "wild_card": True}).as_json()["exact"]

    html = client.get(
        "/odds/",
        {
            "system": "grits_and_glory",
            "check": "trait",
            "shown": "grits_and_glory/trait",
            "die": "8",
            "wild_card": "true",
            "modifier": "0",
            "tn": "4",
        },
    ).content.decode()

    for key, fraction in expected.items():
        assert f'data-outcome="{key}"' in html
        assert f'data-exact="{fraction}"' in html


def test_each_parameter_is_a_typed_input_from_the_checks_schema(client: Client):
    html = client.get("/odds/", {"system": "rencounter", "check": "fire"}).content.decode()

    assert (
        'type="number" inputmode="numeric" id="param-skill" name="skill" value="7" min="2"'
        ' max="12"' in html
    )
    assert '<select id="param-weapon" name="weapon"' in html
    assert 'type="checkbox" id="param-locations" name="locations"' in html
    assert (
        'type="radio" id="param-target_shield-1" name="target_shield" value="none" checked' in html
    )


def test_an_out_of_range_value_is_marked_in_place_and_no_odds_are_shown(client: Client):
    html = client.get(
        "/odds/",
        {"system": "rencounter", "check": "fire", "shown": "rencounter/fire", "skill": "40"},
    ).content.decode()

    assert 'id="param-skill-error">Must be at most 12, not 40.</p>' in html
    assert 'aria-invalid="true"' in html
    assert _rows(html) == []


def test_a_blank_value_without_a_default_is_an_error_not_a_zero(client: Client):
    html = client.get(
        "/odds/",
        {"system": "rencounter", "check": "fire", "shown": "rencounter/fire", "skill": ""},
    ).content.decode()

    assert 'id="param-skill-error">Enter a value.</p>' in html


def test_values_typed_for_another_check_are_dropped_when_the_check_changes(client: Client):
    html = client.get(
        "/odds/",
        {"system": "rencounter", "check": "melee", "shown": "rencounter/fire", "modifier": "99"},
    ).content.decode()

    assert "error" not in _error_ids(html)
    assert _rows(html) == list(get_system("rencounter").check("melee").outcomes)


def _error_ids(html: str) -> str:
    return " ".join(
        part.split('"')[0]
        for part in html.split('id="param-')[1:]
        if part.split('"')[0].endswith("-error")
    )


def test_an_htmx_request_gets_only_the_panel(client: Client):
    response = client.get(
        "/odds/", {"system": "escarmouche", "check": "pool"}, headers={"HX-Request": "true"}
    )

    html = response.content.decode()
    assert "<html" not in html
    assert 'id="odds-form"' in html
    assert _rows(html) == list(get_system("escarmouche").check("pool").outcomes)


def test_the_page_names_the_cli_command_that_prints_the_same_numbers(client: Client):
    html = client.get(
        "/odds/",
        {
            "system": "rencounter",
            "check": "fire",
            "shown": "rencounter/fire",
            "skill": "9",
            "target_shield": "large",
        },
    ).content.decode()

    assert "python -m rules odds rencounter fire skill=9 target_shield=large" in html


def test_an_unknown_system_falls_back_to_the_first_system(client: Client):
    response = client.get("/odds/", {"system": "chess", "check": "checkmate"})

    assert response.status_code == 200
    assert f'value="{all_systems()[0].key}" selected' in response.content.decode()


def test_the_odds_page_needs_no_database_queries(client: Client, django_assert_num_queries):
    with django_assert_num_queries(0):
        client.get("/odds/", {"system": "game_the_90", "check": "shoot"})
