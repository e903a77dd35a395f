"""Character photos pass through `rosters.photos` on the service path: the type is read from
the bytes by Pillow, the size is capped, and what is stored is a fresh encoding without the
upload's metadata under a random name."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from rosters import services

pytestmark = pytest.mark.django_db
GPS_TAG = 0x8825


def _jpeg_with_exif(size=(64, 48)) -> bytes:
    picture = Image.new("RGB", size, (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # camera make
    exif[0x0131] = "Secret Editor"  # software
    out = io.BytesIO()
    picture.save(out, format="JPEG", exif=exif, comment=b"home address here")
    return out.getvalue()


def _upload(data: bytes, name="gridley.jpg", content_type="image/jpeg"):
    return SimpleUploadedFile(name, data, content_type=content_type)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_a_photo_is_stored_re_encoded_without_its_metadata_under_a_random_name(story, media):
    services.character_update(character=story.character, photo=_upload(_jpeg_with_exif()))

    story.character.refresh_from_db()
    stored = story.character.photo
    with Image.open(stored.path) as picture:
        assert picture.format == "JPEG"
        assert picture.size == (64, 48)
        assert not picture.getexif()
        assert "comment" not in picture.info
    assert "gridley" not in stored.name and stored.name.startswith("characters/")
    assert b"SpyCam" not in stored.read() and b"home address" not in stored.read()


def test_a_new_character_with_a_photo_gets_the_clean_copy_too(story, media):
    character = services.character_create(
        force=story.force, name="Pte. Snap", photo=_upload(_jpeg_with_exif())
    )

    with Image.open(character.photo.path) as picture:
        assert not picture.getexif()


def test_a_transparent_png_stays_a_png_with_its_transparency(story, media):
    out = io.BytesIO()
    Image.new("RGBA", (10, 10), (0, 0, 0, 0)).save(out, format="PNG")

    services.character_update(
        character=story.character, photo=_upload(out.getvalue(), "a.png", "image/png")
    )

    with Image.open(story.character.photo.path) as picture:
        assert (picture.format, picture.mode) == ("PNG", "RGBA")


def test_a_big_photo_is_shrunk_to_the_stored_edge(story, media):
    services.character_update(
        character=story.character, photo=_upload(_jpeg_with_exif(size=(4000, 1000)))
    )

    with Image.open(story.character.photo.path) as picture:
        assert picture.size == (1600, 400)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<?php system($_GET['c']); ?>", "not a picture"),
        (b"%PDF-1.7\n1 0 obj", "not a picture"),
        (_jpeg_with_exif()[:200], "damaged"),
    ],
    ids=["script-named-jpg", "pdf-named-jpg", "truncated-jpeg"],
)
def test_a_file_that_is_not_a_whole_picture_is_refused_whatever_its_name(
    story, media, data, message
):
    with pytest.raises(ValidationError) as refused:
        services.character_update(character=story.character, photo=_upload(data))

    assert message in str(refused.value.message_dict["photo"])
    story.character.refresh_from_db()
    assert not story.character.photo


def test_a_picture_in_a_format_outside_the_list_is_refused(story, media):
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="BMP")

    with pytest.raises(ValidationError, match="JPEG, PNG, WebP or GIF"):
        services.character_update(character=story.character, photo=_upload(out.getvalue(), "a.jpg"))


def test_a_photo_over_the_size_limit_is_refused_before_it_is_decoded(story, media, settings):
    settings.PHOTO_MAX_BYTES = 1000

    with pytest.raises(ValidationError, match="larger than"):
        services.character_update(
            character=story.character, photo=_upload(_jpeg_with_exif(size=(300, 300)))
        )


def test_a_decompression_bomb_is_refused_by_its_pixel_count(story, media):
    out = io.BytesIO()
    Image.new("1", (8000, 8000)).save(out, format="PNG")  # tiny file, 64 megapixels

    with pytest.raises(ValidationError, match="pixels"):
        services.character_update(
            character=story.character, photo=_upload(out.getvalue(), "bomb.png", "image/png")
        )
