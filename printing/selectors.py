"""Reads for printing: a force's figures as plain `FigureData`, in a constant number of queries."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Max, QuerySet
from django.urls import reverse

from printing.figures import FigureData
from printing.models import LabelPreset
from printing.sheets import SheetError, SheetPreset, get_preset
from rosters.models import Character, EntryCause, Force, ServiceRecordEntry
from rosters.selectors import force_roster


def label_preset_for(key: str, user: Any) -> SheetPreset:
    """Return a built-in preset, or one of the user's own ("user-<id>"), or raise SheetError."""
    if key.startswith("user-") and key.removeprefix("user-").isdigit():
        preset = LabelPreset.objects.filter(pk=int(key.removeprefix("user-")), owner_id=user.pk)
        found = preset.first()
        if found is None:
            raise SheetError(f"you have no label sheet {key!r}")
        return found.as_sheet()
    return get_preset(key)


def force_version(force: Force) -> str:
    """Return a fingerprint of the force's last change (so a stale print job is not reused)."""
    latest = force.characters.aggregate(latest=Max("updated_at"))["latest"]
    stamps = [stamp for stamp in (force.updated_at, latest) if stamp is not None]
    return max(stamps).isoformat() if stamps else ""


def _record_summaries(characters: QuerySet[Character]) -> dict[int, str]:
    counts: dict[int, Counter[str]] = {}
    rows = ServiceRecordEntry.objects.filter(character__in=characters).values_list(
        "character_id", "cause"
    )
    for character_id, cause in rows:
        counts.setdefault(character_id, Counter())[cause] += 1
    labels = dict(EntryCause.choices)
    return {
        pk: ", ".join(f"{labels.get(c, c).lower()} ×{n}" for c, n in sorted(counter.items()))
        for pk, counter in counts.items()
    }


def _photo_url(character: Character) -> str:
    # The renderer's URL fetcher reads MEDIA_URL paths from MEDIA_ROOT, so a relative media
    # URL is enough, and works in a worker with no request.
    return character.photo.url if character.photo else ""


def _qr_url(site: str, character: Character) -> str:
    return site.rstrip("/") + reverse("character-detail", args=[character.pk]) if site else ""


def force_figures(force: Force, *, site: str = "") -> list[FigureData]:
    """Return every figure of the force, in roster order, as printing's plain data."""
    characters = force_roster(force)
    records = _record_summaries(force.characters.all())
    return [
        FigureData(
            name=c.name, stats=c.stats, rank=c.rank, unit=c.unit.name if c.unit else "",
            status=c.get_status_display(), photo_url=_photo_url(c), qr_url=_qr_url(site, c),
            permanent_wounds=tuple(str(w) for w in c.permanent_wounds or ()),
            record=(f"Service record: {records[c.pk]}",) if c.pk in records else (),
        )
        for c in characters
    ]
