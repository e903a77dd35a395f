"""Careers count only battles fought: drop service-record entries of battles never finished.

Before this change a set-up could write entries (a recovering figure marked fit) for a battle
that was then abandoned. Entries of battles still being set up or played are removed; the
finish writes them again if the battle is finished.
"""

from django.db import migrations

UNFINISHED = ("SETUP", "IN_PROGRESS")


def forget_unfinished(apps, schema_editor):
    Battle = apps.get_model("battles", "Battle")
    Entry = apps.get_model("rosters", "ServiceRecordEntry")
    unfinished = Battle.objects.filter(status__in=UNFINISHED).values_list("pk", flat=True)
    Entry.objects.filter(battle_id__in=list(unfinished)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0005_idempotency_keys"),
        ("rosters", "0002_cross_table_constraints"),
    ]

    operations = [migrations.RunPython(forget_unfinished, migrations.RunPython.noop)]
