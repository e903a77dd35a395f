"""Character photos: what an upload must be, and the clean copy that is stored instead.

An upload is trusted for nothing: its name and content type are the client's word. Pillow
decides what the bytes are; only JPEG, PNG, WebP and GIF pictures of a sane size pass. The
stored file is a fresh encoding of the pixels (JPEG, or PNG when there is transparency) under
a random name, so EXIF (GPS position, camera serial), comments, trailing payloads and
polyglot tricks do not survive, and a file name can never be a path.
"""

from __future__ import annotations

import io
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "GIF"})
#: Refuse pictures above this many pixels before decoding them (decompression bombs).
MAX_PIXELS = 40_000_000
#: The stored copy's longest edge: plenty for a unit card, small on disk.
STORED_EDGE = 1600
JPEG_QUALITY = 85


def _refuse(message: str) -> ValidationError:
    return ValidationError({"photo": [message]})


def _size(upload: File[bytes]) -> int:
    size = getattr(upload, "size", None)
    if size is None:
        upload.seek(0, io.SEEK_END)
        size = upload.tell()
    return int(size)


def _opened(upload: File[bytes]) -> Image.Image:
    upload.seek(0)
    try:
        picture = Image.open(upload)
        if picture.format not in ACCEPTED_FORMATS:
            raise _refuse(f"must be a JPEG, PNG, WebP or GIF picture, not {picture.format}")
        width, height = picture.size
        if width * height > MAX_PIXELS:
            raise _refuse(f"is {width}x{height} pixels; the most is {MAX_PIXELS:,} pixels")
        picture.load()
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise _refuse("is not a picture Muster can read (JPEG, PNG, WebP or GIF)") from None
    except (OSError, SyntaxError, ValueError):
        raise _refuse("is a damaged or truncated picture") from None
    return picture


def _encoded(picture: Image.Image) -> tuple[bytes, str]:
    picture = ImageOps.exif_transpose(picture)  # keep the orientation the EXIF tag asked for
    picture.thumbnail((STORED_EDGE, STORED_EDGE))
    out = io.BytesIO()
    transparent = picture.mode in ("RGBA", "LA") or "transparency" in picture.info
    clean = picture.convert("RGBA" if transparent else "RGB")
    clean.info = {}  # Pillow would write a JPEG comment or ICC profile it found back out
    if transparent:
        clean.save(out, format="PNG", optimize=True)
        return out.getvalue(), "png"
    clean.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue(), "jpg"


def photo_clean(upload: File[bytes]) -> ContentFile[bytes]:
    """Check an uploaded photo and return a re-encoded copy, without metadata, to store."""
    limit = settings.PHOTO_MAX_BYTES
    if _size(upload) > limit:
        raise _refuse(f"is larger than {limit // (1024 * 1024)} MB")
    data, extension = _encoded(_opened(upload))
    return ContentFile(data, name=f"{uuid.uuid4().hex}.{extension}")


def is_new_upload(value: object) -> bool:
    """Return whether a photo value is a fresh upload (not the file already stored)."""
    return bool(value) and not getattr(value, "_committed", False)
