"""Where the unit is the playing piece (Game the 90%, Grits & Glory) its stats live on the unit.

Before, a figure's own stats were what a battle read, and a unit often still held the starting
defaults (a Foot Knights band whose unit said Serjeants). A unit still at the defaults takes
its figures' stats: its leader's, else those most of its figures share. A unit already given
stats of its own keeps them. The figures' own copies stay (read only for a figure in no unit).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.db import migrations


def _valid(schema: Any, stats: Any) -> dict[str, Any] | None:
    from rules.errors import RulesError

    try:
        return schema.validate(stats or {})
    except RulesError:
        return None


def _figures_stats(unit: Any, characters: list[Any], schema: Any, defaults: dict) -> Any:
    own = {c.pk: _valid(schema, c.stats) for c in characters}
    kept = {pk: stats for pk, stats in own.items() if stats and stats != defaults}
    if not kept:
        return None
    if unit.leader_id in kept:
        return kept[unit.leader_id]
    counts = Counter(json.dumps(stats, sort_keys=True) for stats in kept.values())
    return json.loads(counts.most_common(1)[0][0])


def stats_onto_units(apps: Any, schema_editor: Any) -> None:
    from common.stats import starting_stats
    from rules.errors import RulesError
    from rules.system import get_system

    Force = apps.get_model("rosters", "Force")
    Unit = apps.get_model("rosters", "Unit")
    Character = apps.get_model("rosters", "Character")
    for key in Force.objects.values_list("system", flat=True).distinct():
        try:
            system = get_system(key)
        except RulesError:
            continue
        if system.piece != "unit":
            continue
        defaults = starting_stats(system.stats)
        for unit in Unit.objects.filter(force__system=key):
            if _valid(system.stats, unit.stats) not in (None, defaults):
                continue  # the unit holds stats of its own
            characters = list(Character.objects.filter(unit=unit).order_by("name", "pk"))
            stats = _figures_stats(unit, characters, system.stats, defaults)
            if stats is not None:
                unit.stats = stats
                unit.save(update_fields=["stats"])


class Migration(migrations.Migration):
    dependencies = [("rosters", "0004_merge_archive_and_list_index")]

    operations = [migrations.RunPython(stats_onto_units, migrations.RunPython.noop)]
