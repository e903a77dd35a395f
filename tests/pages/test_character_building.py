"""Adding and changing characters on the site: typed fields from the schema, several at once,
the systems' own creation rules, edits, moves and marks, each in the service record."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from rosters.models import Character, CharacterStatus, EntryCause, Force, ServiceRecordEntry
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

MUSKETEER = {
    "stat_experience": "3",
    "stat_fire": "7",
    "stat_melee": "6",
    "stat_armour": "0",
    "stat_shield": "none",
    "stat_weapons": ["matchlock_musket"],
}


def png() -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (12, 8), "navy").save(out, format="PNG")
    return SimpleUploadedFile("me.png", out.getvalue(), content_type="image/png")


def new_url(force: Force) -> str:
    return f"/forces/{force.pk}/characters/new/"


def other_force(muster, system: str) -> Force:
    campaign = CampaignFactory(system=system, name=f"A {system} campaign")
    MembershipFactory(user=muster.alice, campaign=campaign)
    return Force.objects.create(owner=muster.alice, campaign=campaign, system=system, name="B")


# --- one at a time ------------------------------------------------------------------------


def test_the_form_has_typed_fields_with_the_schemas_ranges_choices_and_help(client, muster):
    client.force_login(muster.alice)

    html = client.get(new_url(muster.red)).content.decode()

    assert 'type="number" name="stat_fire"' in html and 'min="2"' in html and 'max="12"' in html
    assert "Missile hit chance on a d12" in html
    assert "Matchlock musket (missile)" in html  # equipment from the weapon tables
    assert 'name="stat_shield"' in html and 'name="stat_armour"' in html
    assert 'type="file" name="photo"' in html


def test_the_owner_adds_a_character_with_a_photo_and_the_record_names_her(client, muster):
    unit = muster.red.units.first()
    client.force_login(muster.alice)

    response = client.post(
        new_url(muster.red),
        {**MUSKETEER, "name": "Sgt. Gridley", "rank": "Sergeant", "unit": unit.pk, "photo": png()},
    )

    assert response.status_code == 302
    gridley = Character.objects.get(name="Sgt. Gridley")
    assert (gridley.unit, gridley.stats["fire"], gridley.stats["weapons"]) == (
        unit,
        7,
        ["matchlock_musket"],
    )
    assert gridley.photo.name.endswith(".jpg")  # re-encoded by the photo checks
    entry = gridley.service_record.get()
    assert (entry.cause, entry.user) == (EntryCause.CREATED, muster.alice)


def test_an_out_of_range_stat_is_shown_beside_its_field_and_nothing_is_saved(client, muster):
    client.force_login(muster.alice)
    before = Character.objects.count()

    response = client.post(new_url(muster.red), {**MUSKETEER, "name": "Tom", "stat_fire": "13"})

    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_stat_fire_error"' in html
    assert "less than or equal to 12" in html
    assert 'value="Tom"' in html  # what the player typed is kept
    assert Character.objects.count() == before
    assert not ServiceRecordEntry.objects.filter(character__name="Tom").exists()


def test_a_derived_stat_starts_empty_and_follows_the_players_choice(client, muster):
    client.force_login(muster.alice)
    html = client.get(new_url(muster.red)).content.decode()

    client.post(new_url(muster.red), {**MUSKETEER, "name": "Tom", "stat_experience": "5"})

    assert 'name="stat_horsemanship" min="1"' in html or 'name="stat_horsemanship"' in html
    assert Character.objects.get(name="Tom").stats["horsemanship"] == 7  # experience + 2


def test_a_shield_without_a_weapon_that_allows_one_is_refused_on_the_shield(client, muster):
    client.force_login(muster.alice)

    response = client.post(
        new_url(muster.red),
        {**MUSKETEER, "name": "Tom", "stat_weapons": ["pike"], "stat_shield": "buckler"},
    )

    assert response.status_code == 400
    assert 'id="id_stat_shield_error"' in response.content.decode()
    assert not Character.objects.filter(name="Tom").exists()


def test_a_file_that_is_not_a_picture_is_refused_beside_the_photo(client, muster):
    client.force_login(muster.alice)
    fake = SimpleUploadedFile("me.png", b"<?php echo 1; ?>", content_type="image/png")

    response = client.post(new_url(muster.red), {**MUSKETEER, "name": "Tom", "photo": fake})

    assert response.status_code == 400
    assert 'id="id_photo_error"' in response.content.decode()
    assert not Character.objects.filter(name="Tom").exists()


def test_a_name_already_in_the_force_is_refused_so_a_double_submit_adds_one(client, muster):
    client.force_login(muster.alice)
    data = {**MUSKETEER, "name": "Pvt. Hobbs"}

    first = client.post(new_url(muster.red), data)
    second = client.post(new_url(muster.red), data)

    assert first.status_code == 302 and second.status_code == 400
    assert "Red already has a character named Pvt. Hobbs." in second.content.decode()
    assert Character.objects.filter(name="Pvt. Hobbs").count() == 1


# --- the systems' own creation rules --------------------------------------------------------


def test_rolling_a_man_fills_the_form_and_saves_nothing(client, muster):
    client.force_login(muster.alice)
    before = Character.objects.count()

    response = client.post(
        new_url(muster.red), {**MUSKETEER, "name": "Recruit", "recipe": "squad_man", "dice": "1"}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert '<option value="3" selected>3 Green</option>' in html
    assert 'name="stat_fire" value="6"' in html
    assert 'value="Recruit"' in html
    assert "Roll a man (your dice: man experience d6 1)" in html
    assert "Experience 3 Green · Fire skill 6 · Melee skill 6" in html
    assert Character.objects.count() == before


def test_a_rolled_figure_saved_as_rolled_says_so_in_its_record(client, muster):
    client.force_login(muster.alice)
    rolled = client.post(new_url(muster.red), {"recipe": "squad_leader", "dice": "6"})
    token = rolled.context["form"].initial["rolled"]

    client.post(
        new_url(muster.red),
        {
            **MUSKETEER,
            "name": "Capt. Hero",
            "stat_experience": "6",
            "stat_fire": "12",
            "stat_melee": "12",
            "rolled": token,
        },
    )

    entry = Character.objects.get(name="Capt. Hero").service_record.get()
    assert entry.note.startswith("Roll a leader (your dice: leader experience d6 6)")


def test_d12_rolls_troop_type_expertise_and_ability_on_its_tables(client, muster):
    force = other_force(muster, "d12_skirmish")
    client.force_login(muster.alice)

    response = client.post(
        new_url(force), {"recipe": "troop_and_ability", "dice": "12 7 5", "name": "Pvt. Doe"}
    )

    form = response.context["form"]
    assert response.status_code == 200
    assert form.initial["stat_troop"] == "elite"
    assert form.initial["stat_expertise"] == "shooting"
    assert "Troop type Elite" in response.content.decode()


def test_unusable_typed_dice_are_explained_and_nothing_is_filled(client, muster):
    force = other_force(muster, "d12_skirmish")
    client.force_login(muster.alice)

    response = client.post(new_url(force), {"recipe": "troop_and_ability", "dice": "13"})

    assert response.status_code == 400
    assert "not a face of a d12" in response.content.decode()


def test_grits_and_glory_starts_a_wild_card_as_a_single_figure(client, muster):
    force = other_force(muster, "grits_and_glory")
    client.force_login(muster.alice)

    response = client.post(new_url(force), {"recipe": "wild_card", "stat_figures": "4"})

    form = response.context["form"]
    assert form.initial["stat_wild_card"] is True and form.initial["stat_figures"] == 1


# --- several at once ----------------------------------------------------------------------


def many_url(force: Force) -> str:
    return f"/forces/{force.pk}/characters/many/"


def test_six_musketeers_at_once_are_numbered_and_share_their_stats(client, muster):
    unit = muster.red.units.first()
    client.force_login(muster.alice)

    response = client.post(
        many_url(muster.red), {**MUSKETEER, "count": "6", "name": "Musketeer", "unit": unit.pk}
    )

    made = Character.objects.filter(name__startswith="Musketeer").order_by("pk")
    assert response.status_code == 302
    assert [c.name for c in made] == [f"Musketeer {n}" for n in range(1, 7)]
    assert {(c.stats["fire"], c.stats["melee"], c.stats["experience"]) for c in made} == {(7, 6, 3)}
    assert {c.unit_id for c in made} == {unit.pk}
    assert ServiceRecordEntry.objects.filter(character__in=made, user=muster.alice).count() == 6


def test_listed_names_replace_the_numbered_ones(client, muster):
    client.force_login(muster.alice)

    client.post(many_url(muster.red), {**MUSKETEER, "names": "Abel\nBaker\n\nCharlie\n"})

    assert set(muster.red.characters.values_list("name", flat=True)) >= {"Abel", "Baker", "Charlie"}


def test_sending_the_same_batch_twice_adds_it_once_and_says_where_to_start(client, muster):
    client.force_login(muster.alice)
    data = {**MUSKETEER, "count": "6", "name": "Musketeer", "first": "1"}

    client.post(many_url(muster.red), data)
    again = client.post(many_url(muster.red), data)

    assert again.status_code == 400 and "Start at 7." in again.content.decode()
    assert Character.objects.filter(name__startswith="Musketeer").count() == 6


def test_a_bad_stat_in_a_batch_saves_none_of_them(client, muster):
    client.force_login(muster.alice)

    response = client.post(
        many_url(muster.red), {**MUSKETEER, "count": "6", "name": "Musketeer", "stat_melee": "1"}
    )

    assert response.status_code == 400
    assert 'id="id_stat_melee_error"' in response.content.decode()
    assert not Character.objects.filter(name__startswith="Musketeer").exists()


# --- editing, moving, marking ---------------------------------------------------------------


def edit_data(character: Character, **changes) -> dict:
    stats = character.stats
    data = {
        "name": character.name,
        "rank": character.rank,
        "unit": character.unit_id or "",
        "notes": character.notes,
        "permanent_wounds": "",
        **{f"stat_{k}": v for k, v in stats.items() if not isinstance(v, list)},
        "stat_weapons": stats["weapons"],
    }
    return {**data, **changes}


def test_editing_the_fire_skill_is_a_hand_edit_by_the_owner_on_the_character_page(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.alice)

    response = client.post(f"/characters/{character.pk}/edit/", edit_data(character, stat_fire="9"))

    entry = character.service_record.get()
    assert response.status_code == 302
    assert (entry.cause, entry.user) == (EntryCause.HAND_EDIT, muster.alice)
    assert entry.before == {"stats": {"fire": 6}} and entry.after == {"stats": {"fire": 9}}
    page = client.get(f"/characters/{character.pk}/").content.decode()
    assert "Edited by hand" in page and "by alice" in page
    assert "Fire skill: <del>6</del> → <ins>9</ins>" in page


def test_saving_an_unchanged_form_twice_records_nothing(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.alice)

    client.post(f"/characters/{character.pk}/edit/", edit_data(character))
    client.post(f"/characters/{character.pk}/edit/", edit_data(character))

    assert not character.service_record.exists()


def test_a_bad_edit_shows_the_error_and_leaves_the_character_as_it_was(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.alice)

    response = client.post(
        f"/characters/{character.pk}/edit/", edit_data(character, stat_fire="x", name="")
    )

    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_stat_fire_error"' in html and 'id="id_name_error"' in html
    assert Character.objects.get(pk=character.pk).stats == character.stats
    assert not character.service_record.exists()


def test_moving_a_character_records_the_move(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    target = muster.red.units.exclude(pk=character.unit_id).get()
    client.force_login(muster.alice)

    client.post(f"/characters/{character.pk}/move/", {"move-unit": target.pk})

    entry = character.service_record.get()
    assert Character.objects.get(pk=character.pk).unit == target
    assert (entry.cause, entry.user, entry.after) == (
        EntryCause.MOVED,
        muster.alice,
        {"unit": target.name},
    )


def test_marking_dead_without_saying_what_happened_is_refused(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.alice)

    response = client.post(f"/characters/{character.pk}/status/", {"mark-status": "DEAD"})

    assert response.status_code == 400
    assert 'id="id_mark-reason_error"' in response.content.decode()
    assert Character.objects.get(pk=character.pk).status == CharacterStatus.ACTIVE


def test_dead_captured_and_retired_land_in_the_record_with_the_reason(client, muster):
    gone, taken, old = muster.red.characters.order_by("pk")[:3]
    client.force_login(muster.alice)
    url = "/characters/{}/status/"

    client.post(url.format(gone.pk), {"mark-status": "DEAD", "mark-reason": "Ball to the chest"})
    client.post(url.format(taken.pk), {"mark-status": "CAPTURED", "mark-reason": "Cut off"})
    client.post(url.format(old.pk), {"mark-status": "RETIRED", "mark-reason": "Went home"})

    statuses = dict(muster.red.characters.values_list("pk", "status"))
    assert [statuses[c.pk] for c in (gone, taken, old)] == ["DEAD", "CAPTURED", "RETIRED"]
    assert gone.service_record.get().note == "Ball to the chest"
    assert old.service_record.get().cause == EntryCause.RETIRED


# --- every system ---------------------------------------------------------------------------


def _as_sent(form) -> dict:
    """Return the data a browser would send for the form's initial values."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list) else str(value)
    return data


@pytest.mark.parametrize(
    "system", ["rencounter", "grits_and_glory", "escarmouche", "game_the_90", "d12_skirmish"]
)
def test_every_system_adds_a_figure_from_the_forms_own_starting_values(client, muster, system):
    force = other_force(muster, system)
    client.force_login(muster.alice)
    page = client.get(new_url(force))

    response = client.post(new_url(force), {**_as_sent(page.context["form"]), "name": "Newcomer"})

    assert page.status_code == 200
    assert response.status_code == 302, response.context["form"].errors
    newcomer = force.characters.get(name="Newcomer")
    assert newcomer.service_record.get().cause == EntryCause.CREATED


def test_the_uploaded_photo_shows_on_the_character_page_through_the_checked_view(client, muster):
    client.force_login(muster.alice)
    client.post(new_url(muster.red), {**MUSKETEER, "name": "Sgt. Gridley", "photo": png()})
    gridley = Character.objects.get(name="Sgt. Gridley")

    html = client.get(f"/characters/{gridley.pk}/").content.decode()
    picture = client.get(gridley.photo.url)

    assert f'src="{gridley.photo.url}"' in html
    assert picture.status_code == 200 and picture["Content-Type"] == "image/jpeg"
    client.force_login(muster.charlie)
    assert client.get(gridley.photo.url).status_code == 404
