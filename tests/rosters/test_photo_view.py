"""A character's photo is served to whoever may see the character, and to nobody else.

alice owns the force, bob plays in the same campaign, olivia organises it, charlie is a
stranger; nobody signed in sees nothing.
"""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from rosters import services

pytestmark = pytest.mark.django_db


def _jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), (10, 120, 40)).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
def photo_url(story, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    upload = SimpleUploadedFile("gridley.jpg", _jpeg(), content_type="image/jpeg")
    services.character_update(character=story.character, photo=upload)
    story.character.refresh_from_db()
    return story.character.photo.url


def _get(user, url):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(url)


@pytest.mark.parametrize("actor", ["alice", "bob", "olivia"])
def test_those_who_may_see_the_character_get_its_photo(story, photo_url, actor):
    response = _get(getattr(story, actor), photo_url)

    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert response["Cache-Control"] == "private, max-age=3600"
    with Image.open(io.BytesIO(b"".join(response.streaming_content))) as picture:
        assert picture.size == (32, 24)


@pytest.mark.parametrize("actor", ["charlie", None])
def test_a_stranger_or_nobody_gets_a_404_not_the_photo(story, photo_url, actor):
    user = getattr(story, actor) if actor else None

    assert _get(user, photo_url).status_code == 404


def test_an_unknown_or_crafted_name_is_a_404(story, photo_url):
    for url in ("/media/characters/nope.jpg", "/media/characters/..%2Fsecret", "/media/x.jpg"):
        assert _get(story.alice, url).status_code == 404


def test_the_api_links_the_photo_where_it_is_served(story, photo_url, as_user):
    character = as_user(story.alice).get(f"/api/characters/{story.character.pk}/").json()

    assert character["photo"].endswith(photo_url)
    assert _get(story.alice, photo_url).status_code == 200


def test_a_photo_whose_file_is_gone_is_a_404(story, photo_url, settings):
    story.character.photo.delete(save=False)

    assert _get(story.alice, photo_url).status_code == 404
