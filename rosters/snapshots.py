"""What a character looks like in its service record: the fields a change can touch."""

from __future__ import annotations

from typing import Any

from rosters.models import Character

TRACKED = ("name", "rank", "status", "unit", "stats", "permanent_wounds", "notes", "photo")


def character_snapshot(character: Character) -> dict[str, Any]:
    """Return the tracked fields as JSON (the unit by name, the photo by file name)."""
    return {
        "name": character.name,
        "rank": character.rank,
        "status": character.status,
        "unit": character.unit.name if character.unit else None,
        "stats": dict(character.stats),
        "permanent_wounds": list(character.permanent_wounds),
        "notes": character.notes,
        "photo": character.photo.name or "",
    }


def snapshot_diff(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return (before, after) restricted to the fields, and stats, that changed."""
    changed = [name for name in TRACKED if before.get(name) != after.get(name)]
    old = {n: before.get(n) for n in changed}
    new = {n: after.get(n) for n in changed}
    if "stats" in changed and before.get("stats") and after.get("stats"):
        keys = sorted(set(before["stats"]) | set(after["stats"]))
        moved = [k for k in keys if before["stats"].get(k) != after["stats"].get(k)]
        old["stats"] = {k: before["stats"].get(k) for k in moved}
        new["stats"] = {k: after["stats"].get(k) for k in moved}
    return old, new
