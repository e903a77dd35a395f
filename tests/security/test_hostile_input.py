"""Hostile input gets a clear 400 (or exit 2), never a 500, and changes nothing.

Each case here was reproduced as a 500 or worse by an outside review: JSON nested thousands
deep on every JSON endpoint, lone surrogates in choice fields, CSV files too long, too wide, in
the wrong encoding or carrying spreadsheet formulas, crafted `muster.campaign` documents, body
ids of objects the caller cannot see, and bad rules-CLI input.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle
from campaign_backup.campaign import campaign_export, campaign_import
from campaigns.models import Campaign, Club, Membership
from rosters.interchange import CSV_MAX_CELL, CSV_MAX_ROWS, force_export_csv, force_import_csv
from rosters.models import Character, Force, ServiceRecordEntry, Unit
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

DEEP = "[" * 3000 + "]" * 3000
WRITES = ("post", "put", "patch")


def _snapshot() -> dict[str, int]:
    models = (Club, Campaign, Membership, Force, Unit, Character, ServiceRecordEntry, Battle)
    return {m.__name__: m.objects.count() for m in models}


def _json_operations(client) -> list[tuple[str, str]]:
    """Every (method, path) of the schema that takes a JSON body."""
    schema = client.get("/api/schema/?format=json").json()
    found = []
    for path, item in schema["paths"].items():
        for method in WRITES:
            body = item.get(method, {}).get("requestBody", {}).get("content", {})
            if "application/json" in body:
                found.append((method, path))
    return found


def _url(path: str, story) -> str:
    ids = {"{id}": story.force.pk, "{key}": "rencounter", "{username}": "alice"}
    for placeholder, value in ids.items():
        path = path.replace(placeholder, str(value))
    return path


# --- JSON bodies ---------------------------------------------------------------------------


def test_json_nested_3000_deep_gets_400_on_every_json_endpoint(story, as_user):
    client = as_user(story.alice)
    operations = _json_operations(client)
    before = _snapshot()

    answers = {
        (method, path): getattr(client, method)(
            _url(path, story), DEEP, content_type="application/json"
        )
        for method, path in operations
    }

    assert len(operations) >= 18
    for (method, path), response in answers.items():
        assert response.status_code == 400, (method, path, response.status_code)
        assert "nested more than" in response.json()["detail"], (method, path)
    assert _snapshot() == before


def test_json_just_inside_the_depth_limit_reaches_the_view(story, as_user, settings):
    body = {"name": "x", "notes": "y", "x": json.loads("[" * 20 + "]" * 20)}

    response = as_user(story.alice).post("/api/forces/", body, format="json")

    assert response.status_code != 400 or "nested" not in response.content.decode()


@pytest.mark.parametrize("field", ["status", "name"])
def test_a_lone_surrogate_in_a_character_field_gets_400_and_changes_nothing(story, as_user, field):
    body = '{"' + field + '": "\\ud800"}'
    before = Character.objects.values().get(pk=story.character.pk)
    url = f"/api/characters/{story.character.pk}/"

    response = as_user(story.alice).patch(url, body, content_type="application/json")

    assert response.status_code == 400
    assert "surrogate" in response.json()["detail"]
    assert Character.objects.values().get(pk=story.character.pk) == before


def test_a_lone_surrogate_in_a_membership_role_gets_400(story, as_user):
    membership = Membership.objects.get(user=story.bob)
    body = '{"role": "\\udfff"}'

    response = as_user(story.olivia).patch(
        f"/api/memberships/{membership.pk}/", body, content_type="application/json"
    )

    assert response.status_code == 400
    assert "surrogate" in response.json()["detail"]
    membership.refresh_from_db()
    assert membership.role == "PLAYER"


def test_a_surrogate_in_a_key_gets_400(story, as_user):
    response = as_user(story.alice).post(
        "/api/forces/", '{"\\ud800": 1}', content_type="application/json"
    )

    assert response.status_code == 400 and "surrogate" in response.json()["detail"]


def test_a_json_body_over_the_size_limit_gets_400(story, as_user, settings):
    settings.JSON_MAX_BYTES = 1000
    body = json.dumps({"name": "x" * 2000})

    response = as_user(story.alice).post("/api/forces/", body, content_type="application/json")

    assert response.status_code == 400
    assert "larger than 1,000 bytes" in response.json()["detail"]


def test_nan_and_infinity_are_refused(story, as_user):
    response = as_user(story.alice).post(
        "/api/forces/", '{"name": NaN}', content_type="application/json"
    )

    assert response.status_code == 400 and "NaN" in response.json()["detail"]


# --- CSV -----------------------------------------------------------------------------------


def _upload(client, force, data: bytes, name: str = "force.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(name, data, content_type="text/csv")
    return client.post(
        f"/api/forces/{force.pk}/characters-csv/", {"file": upload}, format="multipart"
    )


def _problem_text(response) -> str:
    assert response.status_code == 400, response.content[:300]
    return " ".join(p["message"] for p in response.json()["problems"])


def test_a_csv_over_the_row_cap_is_refused_whole(story, as_user):
    rows = "".join(f"Man {i}\n" for i in range(CSV_MAX_ROWS + 1))
    before = _snapshot()

    response = _upload(as_user(story.alice), story.force, f"name\n{rows}".encode())

    assert f"more than {CSV_MAX_ROWS} characters" in _problem_text(response)
    assert _snapshot() == before


def test_a_csv_of_20000_rows_is_refused_quickly(story, as_user):
    rows = "".join(f"Man {i}\n" for i in range(20_000))

    response = _upload(as_user(story.alice), story.force, f"name\n{rows}".encode())

    assert "split it" in _problem_text(response)


@pytest.mark.parametrize("size", [CSV_MAX_CELL + 1, 200_000])
def test_a_csv_cell_over_the_cap_is_refused(story, as_user, size):
    data = f"name,notes\nTom,{'x' * size}\n".encode()

    text = _problem_text(_upload(as_user(story.alice), story.force, data))

    assert "longer than" in text or "cannot be read" in text
    assert not Character.objects.filter(name="Tom").exists()


def test_a_csv_file_over_the_size_cap_is_refused(story, as_user):
    data = b"name,notes\n" + b"Tom,x\n" * 200_000

    assert "larger than" in _problem_text(_upload(as_user(story.alice), story.force, data))


def test_a_latin1_csv_is_refused_with_a_clear_error_not_stored_with_replacement_marks(
    story, as_user
):
    data = "name\nJosé Ñúñez\n".encode("latin-1")

    text = _problem_text(_upload(as_user(story.alice), story.force, data))

    assert "not UTF-8" in text and "line 2" in text
    assert not Character.objects.filter(name__startswith="Jos").exists()


def test_a_utf8_csv_with_a_bom_imports(story, as_user):
    data = "name\nJosé Ñúñez\n".encode("utf-8-sig")

    response = _upload(as_user(story.alice), story.force, data)

    assert response.status_code == 201
    assert Character.objects.filter(name="José Ñúñez").exists()


def test_a_csv_with_a_nul_byte_is_refused(story, as_user):
    data = b"name\nTom\x00\n"

    assert "NUL" in _problem_text(_upload(as_user(story.alice), story.force, data))


@pytest.mark.parametrize(
    "data", [b'name,rank\n"Tom,Private\nAnn,Sergeant\n', b'name\nTom "x\n"Ann']
)
def test_a_csv_with_an_unclosed_quote_is_refused_not_read_to_the_end(story, as_user, data):
    before = _snapshot()

    text = _problem_text(_upload(as_user(story.alice), story.force, data))

    assert "never closed" in text or "cannot be read as CSV" in text
    assert _snapshot() == before


def test_a_csv_with_a_column_twice_is_refused_naming_it(story, as_user):
    before = _snapshot()

    response = _upload(as_user(story.alice), story.force, b"name,rank,rank\nTom,Private,Captain\n")

    assert "appears twice" in _problem_text(response)
    assert [p["column"] for p in response.json()["problems"]] == ["rank"]
    assert _snapshot() == before


def test_a_csv_row_wider_than_its_header_is_refused(story, as_user):
    data = b"name\nTom,extra\n"

    assert "more cells" in _problem_text(_upload(as_user(story.alice), story.force, data))


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil.example","click")', "+1+cmd", "-2+3", "@SUM(A1)"]
)
def test_exported_cells_cannot_run_as_spreadsheet_formulas(story, name):
    CharacterFactory(force=story.force, name=name)

    rows = force_export_csv(force=story.force).splitlines()

    cell = next(r for r in rows if name[1:6] in r)
    assert not cell.lstrip('"').startswith(("=", "+", "-", "@"))
    assert cell.lstrip('"').startswith("'")


def test_formula_escaped_names_come_back_unchanged_through_an_import(story):
    for name in ("=cmd", "'=quoted", "-", "plain"):
        CharacterFactory(force=story.force, name=name, notes="-5")
    text = force_export_csv(force=story.force)
    target = Force.objects.create(owner=story.alice, name="Copy", system=story.force.system)

    force_import_csv(force=target, text=text)

    assert force_export_csv(force=target) == text
    assert set(target.characters.values_list("name", flat=True)) >= {"=cmd", "'=quoted", "-"}


# --- import_campaign -----------------------------------------------------------------------


@pytest.fixture
def document(story):
    return campaign_export(campaign=story.campaign)


def _refusal(document, **kwargs) -> str:
    before = _snapshot()
    with pytest.raises(ValidationError) as caught:
        campaign_import(document=document, **kwargs)
    assert _snapshot() == before
    (message,) = caught.value.messages
    assert "\n" not in message
    return message


def _edited(document, edit):
    crafted = copy.deepcopy(document)
    edit(crafted)
    return crafted


CRAFTED = {
    "missing members": (lambda d: d.pop("members"), "members: is missing"),
    "forces not a list": (lambda d: d.update(forces={"a": 1}), "forces: must be a list"),
    "character name a number": (
        lambda d: d["forces"][0]["characters"][0].update(name=7),
        "forces[0].characters[0].name: must be text",
    ),
    "unit not in the force": (
        lambda d: d["forces"][0]["characters"][0].update(unit="Nobody's"),
        "forces[0].characters[0].unit: no unit",
    ),
    "NUL byte": (
        lambda d: d["forces"][0].update(name="Grid\x00ley"),
        "forces[0].name: holds a NUL character",
    ),
    "surrogate": (
        lambda d: d["forces"][0].update(notes="\ud800"),
        "forces[0].notes: holds an unpaired UTF-16 surrogate",
    ),
    "duplicate member": (
        lambda d: d["members"].append(dict(d["members"][0])),
        "is listed twice",
    ),
    "deep nesting": (
        lambda d: d["forces"][0].update(notes=json.loads("[" * 500 + "]" * 500)),
        "nested more than",
    ),
    "version 2.0": (lambda d: d.update(version=2.0), "version: must be the whole number"),
    "version true": (lambda d: d.update(version=True), "version: must be the whole number"),
    "version as text": (lambda d: d.update(version="2"), "version: must be the whole number"),
    "slug climbing out": (
        lambda d: d["campaign"].update(slug="../../x"),
        "campaign.slug: '../../x' is not a slug",
    ),
    "club slug climbing out": (
        lambda d: d["club"].update(slug="../x"),
        "club.slug: '../x' is not a slug",
    ),
    "photo path climbing out": (
        lambda d: d["forces"][0]["characters"][0].update(photo="../secret_key"),
        "forces[0].characters[0].photo: must be a file name under characters/",
    ),
    "absolute photo path": (
        lambda d: d["forces"][0]["characters"][0].update(photo="/etc/passwd"),
        "photo: must be a file name",
    ),
    "a figure of a missing character": (
        lambda d: d["battles"].append(
            {
                "created_by": None,
                "house_rules": None,
                "sides": [],
                "figures": [{"side": 0, "character": [0, "Ghost"]}],
                "events": [],
                "ledger": [],
            }
        ),
        "battles[0].figures[0].side: no side 0",
    ),
    "a column of the wrong type": (
        lambda d: d["campaign"].update(created_at="yesterday"),
        "campaign.created_at:",
    ),
    "not a document": (lambda d: d.update(format="muster.force"), "not a muster.campaign"),
}


@pytest.mark.parametrize("case", CRAFTED, ids=list(CRAFTED))
def test_a_crafted_campaign_document_is_refused_with_one_line_naming_the_path(document, case):
    edit, expected = CRAFTED[case]

    # The document's own club slug counts only when none is given (import_campaign --club).
    club_slug = None if case.startswith("club slug") else "elsewhere"

    message = _refusal(_edited(document, edit), club_slug=club_slug)

    assert expected in message


def test_a_backup_naming_another_campaigns_photo_is_refused(document):
    stranger = CharacterFactory(name="Someone Else")
    Character.objects.filter(pk=stranger.pk).update(photo="characters/their-face.jpg")
    crafted = _edited(
        document,
        lambda d: d["forces"][0]["characters"][0].update(photo="characters/their-face.jpg"),
    )

    message = _refusal(crafted, club_slug="elsewhere")

    assert "forces[0].characters[0].photo" in message
    assert "another character's photo" in message


@pytest.fixture
def battle_document(db):
    from tests.security.world import build_world

    return campaign_export(campaign=build_world().campaign)


def test_a_backup_whose_seed_does_not_match_its_hash_is_refused(battle_document):
    assert battle_document["battles"], "the world has a battle"
    crafted = _edited(battle_document, lambda d: d["battles"][0].update(seed="0" * 64))

    message = _refusal(crafted, club_slug="elsewhere")

    assert message.startswith("battles[0].seed: does not match")


def test_a_backup_with_its_own_seeds_still_imports(battle_document):
    campaign = campaign_import(document=battle_document, club_slug="elsewhere")

    assert campaign.battles.count() == len(battle_document["battles"])


def test_a_club_slug_given_on_the_command_line_must_be_safe(document):
    assert "club.slug" in _refusal(document, club_slug="../../etc")


def test_a_sound_document_still_imports(document):
    campaign = campaign_import(document=document, club_slug="elsewhere")

    assert campaign.club.slug == "elsewhere"
    assert campaign.forces.count() == 1


def test_import_campaign_command_reports_a_deep_file_in_one_line(tmp_path):
    from django.core.management import CommandError, call_command

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)

    with pytest.raises(CommandError) as caught:
        call_command("import_campaign", str(path))

    assert "nested more than" in str(caught.value)


# --- body ids of objects the caller cannot see ----------------------------------------------

MISSING = 987_654


@pytest.fixture
def cast(db):
    from tests.battles.conftest import make_cast, make_force

    cast = make_cast()
    # eve is a stranger to the Brandywine campaign with a force of her own, outside it.
    make_force(None, cast.eve, "Eve's Own", 2)
    return cast


def _eve_force(cast) -> Force:
    return Force.objects.get(owner=cast.eve)


def _same_answer(unseen, missing, unseen_id: int) -> None:
    """The answers differ only by the id the caller sent: nothing else is learnt."""
    assert unseen.status_code == missing.status_code == 400
    assert unseen.content.replace(f'\\"{unseen_id}\\"'.encode(), b"ID") == (
        missing.content.replace(f'\\"{MISSING}\\"'.encode(), b"ID")
    )
    assert f'\\"{MISSING}\\"'.encode() in missing.content  # the id the answer names


def _post(cast, url: str, sides: list[dict]):
    return cast.client(cast.eve).post(url, {"sides": sides}, format="json")


@pytest.mark.parametrize("url", ["/api/battles/simulate/?runs=2", "/api/battles/"])
def test_a_stranger_naming_an_unseen_force_learns_nothing(cast, url):
    own = {"force": _eve_force(cast).pk}

    unseen = _post(cast, url, [own, {"force": cast.red.pk}])
    missing = _post(cast, url, [own, {"force": MISSING}])

    _same_answer(unseen, missing, cast.red.pk)
    assert b"Red" not in unseen.content


@pytest.mark.parametrize("url", ["/api/battles/simulate/?runs=2", "/api/battles/"])
def test_a_stranger_naming_unseen_characters_learns_nothing(cast, url):
    force = _eve_force(cast)
    private = cast.red.characters.order_by("pk").first()
    before = _snapshot()

    unseen = _post(
        cast, url, [{"force": force.pk, "characters": [private.pk]}, {"force": force.pk}]
    )
    missing = _post(cast, url, [{"force": force.pk, "characters": [MISSING]}, {"force": force.pk}])

    _same_answer(unseen, missing, private.pk)
    assert private.name.encode() not in unseen.content
    assert _snapshot() == before


def test_a_visible_character_of_another_force_is_refused_by_name_of_the_force(cast):
    client = cast.client(cast.alice)
    blue_man = cast.blue.characters.order_by("pk").first()
    sides = [{"force": cast.red.pk, "characters": [blue_man.pk]}, {"force": cast.blue.pk}]

    response = client.post("/api/battles/simulate/?runs=2", {"sides": sides}, format="json")

    assert response.status_code == 400
    assert f"is not in force {cast.red.pk}" in response.content.decode()


# --- the rules CLI -------------------------------------------------------------------------


def _cli(*args: str | bytes):
    import subprocess
    import sys
    from pathlib import Path

    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=60,
    )


CLI_CASES = {
    "non-UTF-8 seed": (
        ("roll", "rencounter", "fire", "skill=5", "--seed", b"\xff\xfe"),
        "argument 6 is not UTF-8 text",
    ),
    "repeated parameter": (
        ("odds", "rencounter", "fire", "skill=5", "skill=6"),
        "parameter 'skill' is given twice",
    ),
    "empty dice entry": (
        ("roll", "rencounter", "fire", "skill=5", "--dice", "1,,2"),
        "--dice has an empty entry",
    ),
    "trailing comma in dice": (
        ("roll", "rencounter", "fire", "skill=5", "--dice", "1,2,"),
        "--dice has an empty entry",
    ),
    "underscore in a number": (
        ("odds", "rencounter", "fire", "skill=1_0"),
        "'1_0' is not a number written with the digits 0-9",
    ),
    "full-width digits": (
        ("odds", "rencounter", "fire", "skill=\uff11\uff10"),
        "is not a number written with the digits 0-9",
    ),
    "full-width die": (
        ("roll", "rencounter", "fire", "skill=5", "--dice", "\uff16"),
        "is not a whole number written with 0-9",
    ),
    "full-width scheme": (
        ("roll", "rencounter", "fire", "skill=5", "--scheme", "\uff11"),
        "is not a whole number written with 0-9",
    ),
    "aftermath dice run out in the sepsis chain": (
        ("roll", "rencounter", "aftermath", "wounds=1", "--dice", ",".join(["1"] * 500)),
        "not enough dice given: needed die #501",
    ),
}


@pytest.mark.parametrize("case", CLI_CASES, ids=list(CLI_CASES))
def test_bad_cli_input_gives_one_line_on_stderr_and_exit_2(case):
    args, expected = CLI_CASES[case]

    result = _cli(*args)

    stderr = result.stderr.decode()
    assert result.returncode == 2, stderr
    assert result.stdout == b""
    assert stderr.count("\n") == 1 and stderr.startswith("error: ")
    assert expected in stderr
