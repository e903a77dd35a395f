"""The organiser's house-rules editor: typed rows from the engine's columns, a bad cell refused on
that cell, a preview that writes nothing, saves that make one version each, export and import,
copying from another campaign of the same system — for each actor (alice and bob play, olivia
organises, charlie is a stranger, and an anonymous visitor).

The campaign plays Rencounter; the table edited is the system's first keyed table whose rows
can be added (its weapons), found from the house spec rather than named here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from campaigns.house_rules_forms import cell_name, percent, remove_name
from campaigns.models import HouseRules, Role
from campaigns.services.house_rules import house_rules_current, house_rules_save
from rules import house
from rules.house import Column, EditableTable
from rules.system import all_systems, get_system
from tests.crawl.crawler import PageParser
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

SYSTEM = get_system("rencounter")
TABLE: EditableTable = next(
    t for t in SYSTEM.house.tables if not t.fixed_rows and t.key and t.probes is not None
)
BASE_ROWS = house.template(SYSTEM)["tables"][TABLE.name]
#: A number column with an upper limit, and the name of the text column a person reads.
LIMITED: Column = next(
    c for c in TABLE.columns if c.kind == "int" and c.max is not None and c.name != TABLE.key
)
NAME: Column = next(c for c in TABLE.columns if c.kind == "text" and c.name != TABLE.key)


def _page(muster) -> str:
    return f"/campaigns/{muster.campaign.pk}/house-rules/"


def editor_data(response) -> dict[str, list[str]]:
    """The editor's fields as the browser would send them untouched."""
    parser = PageParser()
    parser.feed(response.content.decode())
    form = next(f for f in parser.forms if f.action.endswith("/house-rules/"))
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        data.setdefault(name, []).append(value)
    return data


def fill(data: dict[str, list[str]], index: int, **cells: Any) -> None:
    for column, value in cells.items():
        data[cell_name(TABLE.name, index, column)] = [_form_text(value)]


def _form_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value)


def new_row() -> dict[str, Any]:
    """A row a club adds: the first row's numbers under a name of its own."""
    return {**BASE_ROWS[0], TABLE.key: "house_special", NAME.name: "House special"}


def bumped(value: int) -> int:
    return value + 1 if LIMITED.max is None or value + 1 <= LIMITED.max else value - 1


def _edited(client, muster, *, note: str = "") -> dict[str, list[str]]:
    data = editor_data(client.get(_page(muster)))
    fill(data, len(BASE_ROWS), **new_row())
    fill(data, 0, **{LIMITED.name: bumped(BASE_ROWS[0][LIMITED.name])})
    data["note"] = [note]
    return data


@pytest.fixture
def organiser(client, muster):
    client.force_login(muster.olivia)
    return client


# --- who may open it -----------------------------------------------------------------------------


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("bob", 403), ("charlie", 404)])
@pytest.mark.parametrize("suffix", ["", "export.json"])
def test_only_organisers_open_the_editor_and_its_export(client, muster, actor, status, suffix):
    client.force_login(getattr(muster, actor))

    response = client.get(_page(muster) + suffix)

    assert response.status_code == status


@pytest.mark.parametrize(("actor", "status"), [("alice", 403), ("bob", 403), ("charlie", 404)])
@pytest.mark.parametrize("action", ["", "import/", "copy/"])
def test_nobody_but_an_organiser_changes_the_house_rules(client, muster, actor, status, action):
    client.force_login(getattr(muster, actor))

    response = client.post(_page(muster) + action, {"save": "1"})

    assert response.status_code == status
    assert not HouseRules.objects.exists()


def test_an_anonymous_visitor_is_sent_to_sign_in(client, muster):
    response = client.get(_page(muster))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


# --- the typed editor ----------------------------------------------------------------------------


def test_every_cell_is_a_typed_input_from_its_column_never_a_json_box(organiser, muster):
    html = organiser.get(_page(muster)).content.decode()

    assert "<textarea" not in html
    for column in TABLE.columns:
        name = cell_name(TABLE.name, 0, column.name)
        tag = {"int": "number", "number": "number", "text": "text", "bool": "checkbox"}
        if column.kind == "choice":
            assert f'<select id="cell-{TABLE.name}-0-{column.name}" name="{name}"' in html
        else:
            assert f'type="{tag[column.kind]}" id="cell-{TABLE.name}-0-{column.name}"' in html
    limited = f'name="{cell_name(TABLE.name, 0, LIMITED.name)}"'
    assert f'{limited} value="{BASE_ROWS[0][LIMITED.name]}" min="{LIMITED.min:g}"' in html
    assert f'max="{LIMITED.max:g}" step="1"' in html
    assert f'name="{cell_name(TABLE.name, 0, NAME.name)}" value="{BASE_ROWS[0][NAME.name]}"' in html


def test_each_table_offers_an_empty_row_to_fill_and_add_a_row_gives_another(organiser, muster):
    data = editor_data(organiser.get(_page(muster)))
    blank = cell_name(TABLE.name, len(BASE_ROWS), TABLE.key)
    second = cell_name(TABLE.name, len(BASE_ROWS) + 1, TABLE.key)
    assert data[blank] == [""]

    response = organiser.post(_page(muster), {**data, f"add-{TABLE.name}": "1"})

    assert response.status_code == 200
    assert second in editor_data(response)
    assert not HouseRules.objects.exists()


def test_a_table_whose_rows_are_fixed_has_neither_an_empty_row_nor_remove(organiser, muster):
    fixed = next(t for t in SYSTEM.house.tables if t.fixed_rows)
    count = len(house.template(SYSTEM)["tables"][fixed.name])

    data = editor_data(organiser.get(_page(muster)))

    assert data[f"t-{fixed.name}-rows"] == [str(count)]
    assert remove_name(fixed.name, 0) not in organiser.get(_page(muster)).content.decode()


def test_a_bad_cell_comes_back_on_that_cell_and_nothing_is_written(organiser, muster):
    data = editor_data(organiser.get(_page(muster)))
    too_high = int(LIMITED.max) + 3
    fill(data, 2, **{LIMITED.name: too_high})
    data["save"] = ["1"]

    response = organiser.post(_page(muster), data)

    html = response.content.decode()
    cell = f"cell-{TABLE.name}-2-{LIMITED.name}"
    assert response.status_code == 400
    assert f'id="{cell}" name="{cell_name(TABLE.name, 2, LIMITED.name)}" value="{too_high}"' in html
    assert f'aria-invalid="true" aria-describedby="{cell}-error" autofocus' in html
    assert f'<p class="error" id="{cell}-error">Must be at most {LIMITED.max:g}' in html
    assert f'href="#{cell}"' in html
    assert not HouseRules.objects.exists()


def test_the_bad_cell_is_found_below_a_removed_row(organiser, muster):
    # The pack leaves the removed row out, so the engine counts rows one fewer than the form.
    data = editor_data(organiser.get(_page(muster)))
    data[remove_name(TABLE.name, 0)] = ["on"]
    fill(data, 3, **{LIMITED.name: "lots"})
    data["preview"] = ["1"]

    response = organiser.post(_page(muster), data)

    html = response.content.decode()
    assert response.status_code == 400
    assert f'id="cell-{TABLE.name}-3-{LIMITED.name}-error">Must be a number' in html
    assert not HouseRules.objects.exists()


def test_a_key_used_twice_is_refused_on_the_second_row(organiser, muster):
    data = editor_data(organiser.get(_page(muster)))
    fill(data, len(BASE_ROWS), **{**new_row(), TABLE.key: BASE_ROWS[0][TABLE.key]})

    response = organiser.post(_page(muster), {**data, "save": "1"})

    assert response.status_code == 400
    assert f'id="cell-{TABLE.name}-{len(BASE_ROWS)}-{TABLE.key}-error"' in response.content.decode()
    assert not HouseRules.objects.exists()


# --- preview and save ----------------------------------------------------------------------------


def test_the_preview_shows_the_changes_and_the_odds_before_and_after_and_writes_nothing(
    organiser, muster
):
    data = _edited(organiser, muster)

    response = organiser.post(_page(muster), {**data, "preview": "1"})

    html = response.content.decode()
    preview = response.context["preview"]
    assert response.status_code == 200
    assert f"{TABLE.title}: added house_special" in preview.changes
    assert any(c.startswith(f"{TABLE.title}, {BASE_ROWS[0][TABLE.key]}: ") for c in preview.changes)
    assert all(escape(change) in html for change in preview.changes)
    assert preview.odds, "the edited rows' probes are priced"
    assert any(c.new for c in preview.odds) and any(not c.new for c in preview.odds)
    assert any(line.before != line.after for c in preview.odds for line in c.lines)
    assert 'data-testid="odds-comparison"' in html and "→" in html
    assert 'class="house-cell house-cell--' in html and "is-changed" in html
    assert not HouseRules.objects.exists()


def test_the_preview_odds_are_the_engines_own_to_the_tenth_of_a_percent(organiser, muster):
    rows = [dict(row) for row in BASE_ROWS] + [new_row()]
    rows[0][LIMITED.name] = bumped(rows[0][LIMITED.name])
    expected = house.compare(SYSTEM, None, house.load(SYSTEM, _pack({TABLE.name: rows})))

    response = organiser.post(_page(muster), {**_edited(organiser, muster), "preview": "1"})

    shown = response.context["preview"].odds
    assert [c.label for c in shown] == [c.probe.label for c in expected]
    first, engine = shown[0], expected[0]
    moved = [k for k in engine.after if engine.after[k] or engine.before[k]]
    assert [line.before for line in first.lines] == [percent(engine.before[k]) for k in moved]
    assert [line.after for line in first.lines] == [percent(engine.after[k]) for k in moved]


def _pack(tables: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return house.pack_document(SYSTEM.key, tables)


def test_save_keeps_a_new_version_with_its_note_and_says_so(organiser, muster):
    data = _edited(organiser, muster, note="A house weapon")

    response = organiser.post(_page(muster), {**data, "save": "1"}, follow=True)

    version = house_rules_current(muster.campaign)
    assert version is not None and version.number == 1
    assert version.note == "A house weapon" and version.created_by == muster.olivia
    assert list(version.document["tables"]) == [TABLE.name]  # untouched tables follow Muster's
    assert "Saved as version 1" in response.content.decode()
    rows = house.load(SYSTEM, version.document).tables[TABLE.name]
    assert rows[-1][TABLE.key] == "house_special"


def test_saving_the_same_tables_twice_makes_one_version(organiser, muster):
    data = {**_edited(organiser, muster), "save": "1"}
    organiser.post(_page(muster), data)

    response = organiser.post(_page(muster), data, follow=True)

    assert HouseRules.objects.filter(campaign=muster.campaign).count() == 1
    assert "Nothing changed" in response.content.decode()


def test_saving_the_rules_as_written_makes_no_version(organiser, muster):
    data = editor_data(organiser.get(_page(muster)))

    organiser.post(_page(muster), {**data, "save": "1"})

    assert not HouseRules.objects.exists()


def test_the_editor_starts_from_the_version_the_campaign_plays(organiser, muster):
    organiser.post(_page(muster), {**_edited(organiser, muster), "save": "1"})

    data = editor_data(organiser.get(_page(muster)))

    assert data[cell_name(TABLE.name, len(BASE_ROWS), TABLE.key)] == ["house_special"]
    assert data[cell_name(TABLE.name, len(BASE_ROWS) + 1, TABLE.key)] == [""]


def test_removing_a_row_saves_a_version_without_it_and_the_history_says_so(organiser, muster):
    data = editor_data(organiser.get(_page(muster)))
    data[remove_name(TABLE.name, 1)] = ["on"]

    organiser.post(_page(muster), {**data, "save": "1"})
    html = organiser.get(_page(muster)).content.decode()

    rows = house_rules_current(muster.campaign).document["tables"][TABLE.name]
    assert BASE_ROWS[1][TABLE.key] not in [row[TABLE.key] for row in rows]
    assert f"{TABLE.title}: removed {BASE_ROWS[1][TABLE.key]}" in html
    assert 'data-testid="house-version"' in html


def test_the_history_lists_each_version_with_what_it_changed(organiser, muster):
    first = house.template(SYSTEM)
    first["tables"] = {TABLE.name: [*BASE_ROWS, new_row()]}
    house_rules_save(campaign=muster.campaign, document=first, user=muster.olivia, note="One")
    second = json.loads(json.dumps(first))
    second["tables"][TABLE.name][0][LIMITED.name] = bumped(BASE_ROWS[0][LIMITED.name])
    house_rules_save(campaign=muster.campaign, document=second, user=muster.olivia, note="Two")

    html = organiser.get(_page(muster)).content.decode()

    assert html.count('data-testid="house-version"') == 2
    assert html.index("Version 2") < html.index("Version 1")
    assert f"{TABLE.title}: added house_special" in html
    assert escape(f"{TABLE.title}, {BASE_ROWS[0][TABLE.key]}: {LIMITED.title}") in html


# --- export, import, copy ------------------------------------------------------------------------


def _upload(content: bytes | str, name: str = "pack.json") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_export_then_import_elsewhere_loads_the_same_tables_and_saves_the_same_pack(
    organiser, muster
):
    organiser.post(_page(muster), {**_edited(organiser, muster), "save": "1"})
    exported = organiser.get(_page(muster) + "export.json")
    other = CampaignFactory(system=SYSTEM.key, name="Germantown", club=muster.campaign.club)
    MembershipFactory(user=muster.olivia, campaign=other, role=Role.ORGANISER)
    there = f"/campaigns/{other.pk}/house-rules/"

    loaded = organiser.post(there + "import/", {"pack": _upload(exported.content)})
    saved = organiser.post(there, {**editor_data(loaded), "save": "1"})

    assert exported["Content-Disposition"].startswith('attachment; filename="brandywine-house')
    assert loaded.status_code == 200
    assert "added house_special" in loaded.content.decode()
    assert "Imported from Brandywine house rules v1" in loaded.content.decode()
    assert saved.status_code == 302
    mine, theirs = house_rules_current(muster.campaign), house_rules_current(other)
    assert theirs.digest == mine.digest
    assert theirs.note == "Imported from Brandywine house rules v1"


def test_importing_the_pack_the_campaign_plays_changes_nothing(organiser, muster):
    organiser.post(_page(muster), {**_edited(organiser, muster), "save": "1"})
    exported = organiser.get(_page(muster) + "export.json").content

    loaded = organiser.post(_page(muster) + "import/", {"pack": _upload(exported)})
    organiser.post(_page(muster), {**editor_data(loaded), "save": "1"})

    assert "Nothing: these tables are the ones the campaign plays now." in loaded.content.decode()
    assert HouseRules.objects.count() == 1


def test_the_export_of_a_campaign_without_house_rules_is_the_template(organiser, muster):
    response = organiser.get(_page(muster) + "export.json")

    document = json.loads(response.content)
    assert document["tables"] == house.template(SYSTEM)["tables"]
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\xff\xfe{}", "is not UTF-8 text"),
        ("{not json", "is not valid JSON"),
        ('{"tables": {"x": [{"a": NaN}]}}', "not a number JSON allows"),
        ('{"system": "escarmouche", "tables": {}}', "this pack is for 'escarmouche'"),
        ("[1, 2]", "must be a JSON object"),
        (b" " * 1_000_001, "larger than 1 MB"),
    ],
    ids=["latin", "broken", "nan", "other-system", "list", "huge"],
)
def test_a_file_that_is_not_a_pack_for_this_system_is_refused_in_one_line(
    organiser, muster, content, says
):
    response = organiser.post(_page(muster) + "import/", {"pack": _upload(content)})

    assert response.status_code == 400
    error = response.context["import_form"].errors["pack"]
    assert len(error) == 1 and says in error[0] and "\n" not in error[0]
    assert not HouseRules.objects.exists()


def test_an_imported_bad_cell_is_named_by_table_row_and_column(organiser, muster):
    document = house.template(SYSTEM)
    document["tables"][TABLE.name][1][LIMITED.name] = int(LIMITED.max) + 1

    response = organiser.post(_page(muster) + "import/", {"pack": _upload(json.dumps(document))})

    error = response.context["import_form"].errors["pack"][0]
    assert error.startswith(f"table {TABLE.name}, row 2, column {LIMITED.name}: must be at most")


def test_an_import_without_a_file_asks_for_one(organiser, muster):
    response = organiser.post(_page(muster) + "import/", {})

    assert response.status_code == 400
    assert response.context["import_form"].errors["pack"]


@pytest.fixture
def germantown(muster):
    """Another Rencounter campaign olivia organises, with house rules of its own."""
    other = CampaignFactory(system=SYSTEM.key, name="Germantown", club=muster.campaign.club)
    MembershipFactory(user=muster.olivia, campaign=other, role=Role.ORGANISER)
    document = house.template(SYSTEM)
    document["tables"] = {TABLE.name: [*BASE_ROWS, new_row()]}
    house_rules_save(campaign=other, document=document, user=muster.olivia, note="Theirs")
    return other


def test_the_organiser_copies_another_campaigns_house_rules_as_a_new_version(
    organiser, muster, germantown
):
    page = organiser.get(_page(muster)).content.decode()

    response = organiser.post(_page(muster) + "copy/", {"source": germantown.pk}, follow=True)

    assert f'<option value="{germantown.pk}"' in page
    version = house_rules_current(muster.campaign)
    assert version.number == 1 and version.digest == house_rules_current(germantown).digest
    assert version.note == "Copied from Germantown (v1)"
    assert "Copied Germantown" in response.content.decode()


def test_only_a_campaign_of_the_same_system_the_organiser_runs_can_be_copied(
    organiser, muster, germantown
):
    elsewhere = CampaignFactory(system="escarmouche", name="Nieuwpoort")
    MembershipFactory(user=muster.olivia, campaign=elsewhere, role=Role.ORGANISER)
    stranger = CampaignFactory(system=SYSTEM.key, name="Not hers")
    house_rules_save(
        campaign=stranger, document=house.template(SYSTEM), user=UserFactory(), note=""
    )
    page = organiser.get(_page(muster)).content.decode()

    refused = [
        organiser.post(_page(muster) + "copy/", {"source": c.pk}) for c in (elsewhere, stranger)
    ]

    assert f'<option value="{elsewhere.pk}"' not in page
    assert f'<option value="{stranger.pk}"' not in page
    assert [r.status_code for r in refused] == [400, 400]
    assert not HouseRules.objects.filter(campaign=muster.campaign).exists()


def test_without_another_campaign_to_copy_from_the_page_says_so(organiser, muster):
    html = organiser.get(_page(muster)).content.decode()

    assert "has house rules to copy" in html
    assert f'action="{_page(muster)}copy/"' not in html


# --- at a phone's width ------------------------------------------------------------------------


def test_each_table_scrolls_inside_its_own_box_with_inputs_big_enough_to_tap(organiser, muster):
    html = organiser.get(_page(muster)).content.decode()

    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert html.count('class="table-wrap house-table__scroll"') == len(SYSTEM.house.tables)
    assert html.count('role="region"') == len(SYSTEM.house.tables)
    styles = (settings.BASE_DIR / "static/pages/muster.css").read_text()
    assert ".house-table__scroll {" in styles and "overflow: auto" in styles
    assert "min-height: 44px" in styles.split("house-rules editor")[1]


def test_the_fullest_editor_of_any_system_fits_in_one_request():
    # Every cell is a form field; Django refuses a request with more fields than the setting.
    for system in (s for s in all_systems() if s.house is not None):
        fields = 0
        for table in system.house.tables:
            rows = (
                len(table.rows()) if table.fixed_rows else min(table.max_rows, house.MAX_ROWS) + 2
            )
            fields += rows * (len(table.columns) + 1) + 1
        assert fields + 10 <= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS, system.key


def test_a_save_over_a_version_saved_meanwhile_asks_first_then_replaces_it(organiser, muster):
    # olivia opens the editor; bob-the-co-organiser saves version 1 before she presses Save.
    data = _edited(organiser, muster, note="Hers")
    theirs = house.pack_document(SYSTEM.key, {TABLE.name: BASE_ROWS[1:]})
    house_rules_save(campaign=muster.campaign, document=theirs, user=muster.bob, note="Theirs")

    warned = organiser.post(_page(muster), {**data, "save": "1"})
    again = organiser.post(_page(muster), {**editor_data(warned), "save": "1"})

    assert warned.status_code == 409
    assert "Version 1 was saved by bob while you were editing" in warned.content.decode()
    assert f"{TABLE.title}: added {BASE_ROWS[0][TABLE.key]}" in warned.context["preview"].changes
    assert again.status_code == 302
    assert house_rules_current(muster.campaign).number == 2
    assert house_rules_current(muster.campaign).note == "Hers"


@pytest.mark.parametrize("key", [s.key for s in all_systems()])
def test_every_systems_editor_opens_and_its_tables_as_written_save_nothing(client, key):
    olivia = UserFactory(username="olivia")
    campaign = CampaignFactory(system=key)
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    client.force_login(olivia)
    page = f"/campaigns/{campaign.pk}/house-rules/"
    data = editor_data(client.get(page))

    preview = client.post(page, {**data, "preview": "1"})
    saved = client.post(page, {**data, "save": "1"})

    assert preview.status_code == 200 and preview.context["preview"].changes == ()
    assert saved.status_code == 302 and not HouseRules.objects.exists()
    spec = get_system(key).house
    assert all(f"t-{table.name}-rows" in data for table in spec.tables)


@pytest.mark.parametrize("key", ["grits_and_glory", "rencounter", "d12_skirmish", "escarmouche"])
def test_a_figure_carrying_a_weapon_the_club_dropped_still_shows_and_prints(client, key):
    # Version 1 adds a weapon, a figure takes it up, version 2 drops it again.
    system = get_system(key)
    alice = UserFactory(username="alice")
    campaign = CampaignFactory(system=key)
    MembershipFactory(user=alice, campaign=campaign)
    force = ForceFactory(campaign=campaign, owner=alice)
    figure = CharacterFactory(force=force, unit=UnitFactory(force=force), name="Red Sheriff")
    table = next(t for t in system.house.tables if not t.fixed_rows and t.key)
    rows = house.template(system)["tables"][table.name]
    added = {**rows[-1], table.key: "house_special"}
    house_rules_save(
        campaign=campaign,
        document=house.pack_document(key, {table.name: [*rows, added]}),
        user=alice,
    )
    carried = next(
        f
        for f in get_system(key)
        .with_house(house.pack_document(key, {table.name: [*rows, added]}))
        .stats.fields
        if f.kind == "multichoice" and "house_special" in {v for v, _ in f.choices}
    )
    figure.stats = {**figure.stats, carried.name: ["house_special"]}
    figure.save(update_fields=["stats"])
    house_rules_save(campaign=campaign, document=house.pack_document(key, {}), user=alice)
    client.force_login(alice)

    pages = [f"/forces/{force.pk}/", f"/characters/{figure.pk}/"]
    prints = [f"/api/forces/{force.pk}/{kind}.pdf" for kind in ("labels", "cards", "roster")]

    assert [client.get(url).status_code for url in pages + prints] == [200] * 5
    assert "Red Sheriff" in client.get(pages[0]).content.decode()


@pytest.mark.parametrize(
    ("system_key", "table", "column"),
    [
        ("game_the_90", "unit_types", "turns_per_move"),
        ("grits_and_glory", "weapons", "pistol"),
        ("grits_and_glory", "victory_points", "points"),
    ],
)
def test_a_printed_only_column_says_so_in_the_editor(client, system_key, table, column):
    olivia = UserFactory(username="olivia")
    campaign = CampaignFactory(system=system_key)
    MembershipFactory(user=olivia, campaign=campaign, role=Role.ORGANISER)
    client.force_login(olivia)
    explained = get_system(system_key).house.table(table).column(column).explained

    html = client.get(f"/campaigns/{campaign.pk}/house-rules/").content.decode()

    assert "Printed only: " in explained
    assert escape(explained) in html


def test_an_outcome_an_edit_makes_possible_reads_from_0_percent():
    """Odds leave out what cannot happen; an edit that makes a result possible compares it with
    0%, not with nothing (a missing key used to raise TypeError in the preview)."""
    from campaigns.house_rules_forms import odds_comparison
    from rules.house import Comparison, Probe

    probe = Probe(check="fire", params={"skill": 7}, label="Fire at skill 7")
    comparison = Comparison(probe, before={"miss": 1}, after={"miss": 0.75, "hit": 0.25})

    shown = odds_comparison("rencounter", comparison).lines

    assert {(line.before, line.after, line.trend) for line in shown} == {
        ("100.0%", "75.0%", "down"),
        ("0%", "25.0%", "up"),
    }
