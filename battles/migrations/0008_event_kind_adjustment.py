"""A third kind of event: a wound, Hit or marker adjusted by hand at the table.

SQLite rebuilds the event table to change the kind's check constraint, which drops its
append-only trigger; the last operation puts it back (PostgreSQL keeps its trigger).
"""

import importlib

from django.db import migrations, models

append_only = importlib.import_module("battles.migrations.0002_event_log_append_only")


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0007_house_rules_version"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="battleevent",
            name="battle_event_kind_valid",
        ),
        migrations.AlterField(
            model_name="battleevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("CHECK", "Check"),
                    ("ACTIVATION", "Activation"),
                    ("ADJUSTMENT", "Adjustment"),
                ],
                default="CHECK",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="battleevent",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["CHECK", "ACTIVATION", "ADJUSTMENT"])),
                name="battle_event_kind_valid",
            ),
        ),
        migrations.RunPython(
            append_only._run({"sqlite": append_only.SQLITE_UP}), migrations.RunPython.noop
        ),
    ]
