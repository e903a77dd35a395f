"""The crawler itself: it follows links and htmx, submits forms as shown, rolls them back, and
names every server error with the page, actor and state."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from tests.crawl.crawler import Caps, Crawl, PageParser, report

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.crawl.crawl_urls")]


def crawl() -> Crawl:
    return Crawl(Client(), "alice (owner)", lambda route, kwargs: "set up").run(["/crawl-test/"])


def test_a_form_is_read_with_the_values_a_browser_would_send():
    parser = PageParser()

    parser.feed(
        '<form method="post" action="/x/"><input name="a" value="1"><input type="radio" '
        'name="r" value="no"><input type="radio" name="r" value="yes" checked><select name="s">'
        '<option>first</option><option>second</option></select><input type="file" name="f">'
        '<input name="off" value="z" disabled><input type="submit" name="_save" value="Save">'
        '<input type="submit" name="_continue" value="More"></form>'
    )

    (form,) = parser.forms
    assert (form.method, form.action) == ("post", "/x/")
    assert form.variants()[0].fields == [
        ("a", "1"),
        ("r", "yes"),
        ("s", "first"),
        ("_save", "Save"),
    ]


def test_a_button_with_its_own_formaction_is_a_second_way_to_send_the_form():
    parser = PageParser()

    parser.feed(
        '<form method="post" action="/check/"><input name="actor" value="7">'
        '<button name="go" value="roll">Resolve</button>'
        '<button formaction="/void/" name="seq" value="3">Void #3</button></form>'
    )

    sent = [(f.action, f.fields) for f in parser.forms[0].variants()]
    assert sent == [
        ("/check/", [("actor", "7"), ("go", "roll")]),
        ("/void/", [("actor", "7"), ("seq", "3")]),
    ]


def test_each_named_button_of_one_form_is_its_own_way_to_send_it():
    """A figure's chips at the table: one form, a button per adjustment, each submitted."""
    parser = PageParser()

    parser.feed(
        '<form method="post" action="/battles/1/adjust/" hx-post="/battles/1/adjust/">'
        '<input type="hidden" name="figure" value="7">'
        '<button name="adjust" value="wounds:remove">1 wound point ×</button>'
        '<button name="adjust" value="wounds:add">+1 wound point</button>'
        '<button name="adjust" value="down:add">knocked down</button></form>'
    )

    sent = [f.fields for f in parser.forms[0].variants()]
    assert sent == [
        [("figure", "7"), ("adjust", "wounds:remove")],
        [("figure", "7"), ("adjust", "wounds:add")],
        [("figure", "7"), ("adjust", "down:add")],
    ]


def test_a_crash_behind_a_link_is_reported_with_the_page_actor_and_state():
    result = crawl()

    (failure,) = [f for f in result.failures if f.url == "/crawl-test/broken/"]
    assert failure.actor == "alice (owner)" and failure.state == "set up"
    assert failure.found_on == "/crawl-test/"
    assert "RuntimeError: the page fell over" in failure.detail


def test_a_form_is_posted_and_the_page_it_leads_to_is_fetched_before_the_rollback():
    Battle.objects.create(system="rencounter", seed="s", seed_sha256="h")

    result = crawl()

    (failure,) = [f for f in result.failures if f.url == "/crawl-test/after/"]
    assert failure.status == 503 and failure.found_on == "after POST /crawl-test/change/"
    assert Battle.objects.get().scenario == ""  # rolled back
    assert result.submitted == 1


def test_htmx_links_are_fetched_as_htmx_and_other_sites_are_left_alone():
    result = crawl()

    assert not [f for f in result.failures if f.url == "/crawl-test/fragment/"]
    assert result.fetched == 4  # the page, broken/, fragment/ and after/ (after the form)


def test_the_report_lists_every_failure_after_the_size_of_the_crawl():
    text = report([crawl()])

    first, *lines = text.splitlines()
    assert first.startswith("1 server error(s); 4 pages fetched, 1 forms submitted")
    assert lines[0].startswith(
        "500 GET /crawl-test/broken/ as alice (owner) [set up] (found on /crawl-test/)"
    )


def test_caps_keep_a_route_to_its_number_of_objects_and_query_strings():
    crawl = Crawl(Client(), "bob", lambda route, kwargs: "site", Caps(variants_per_object=2))

    allowed = [crawl._within_caps(f"/crawl-test/fragment/?page={n}") for n in range(4)]

    assert allowed == [True, True, False, False]
