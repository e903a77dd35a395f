"""Read an uploaded backup file, refusing in one sentence what is not a backup we can take.

Checked before anything is stored, in this order, so the message names the real problem: the
size (read no further than the limit), the encoding (UTF-8, with or without a byte-order mark;
UTF-16 or UTF-32 only with one, as Windows editors save it), then the JSON itself through the
same strict reader as the API's bodies (no NaN, no 1e400, no NUL, no lone surrogates, no
nesting past the schema's depth). What the document holds is checked afterwards, whole, by
`campaign_backup.schema` (format, version, rule system, every reference).
"""

from __future__ import annotations

import codecs

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from campaign_backup.schema import MAX_DEPTH
from common import strict_json
from common.json_types import JSON

#: A played season of eight players is about 1 MB; settings may raise it (BACKUP_MAX_BYTES).
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
#: Byte-order marks, longest first (UTF-32's starts with UTF-16's).
MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def max_bytes() -> int:
    return int(getattr(settings, "BACKUP_MAX_BYTES", DEFAULT_MAX_BYTES))


def backup_read(upload: UploadedFile) -> JSON:
    """Return the JSON value in an uploaded file, or raise ValidationError saying why not."""
    limit = max_bytes()
    if upload.size is not None and upload.size > limit:
        raise ValidationError(_too_big(limit))
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ValidationError(_too_big(limit))
    return backup_parse(data)


def backup_parse(data: bytes) -> JSON:
    """Decode and parse a backup file's bytes strictly (see the module docstring)."""
    if not data.strip():
        raise ValidationError("The file is empty: choose the .json file a backup downloaded.")
    text = _decoded(data)
    try:
        # The strict reader counts the top level as 1; the schema counts it as 0.
        return strict_json.loads(text, max_depth=MAX_DEPTH + 1)
    except strict_json.HostileJson as refusal:
        raise ValidationError(f"This file cannot be a Muster backup: {refusal}.") from None
    except ValueError as error:
        raise ValidationError(f"This file is not a Muster backup (not JSON: {error}).") from None


def _decoded(data: bytes) -> str:
    encoding = next((name for mark, name in MARKS if data.startswith(mark)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValidationError(
            f"This file is not UTF-8 text (byte {data[error.start]:#04x} at position "
            f"{error.start}): a Muster backup is UTF-8 JSON, as the Download button saves it."
        ) from None


def _too_big(limit: int) -> str:
    return (
        f"The file is larger than {limit // (1024 * 1024)} MB, more than any campaign backup "
        "this site takes (BACKUP_MAX_BYTES)."
    )
