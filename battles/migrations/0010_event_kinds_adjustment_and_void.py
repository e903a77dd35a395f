"""Both new event kinds (a hand adjustment, a void logged as an event) in one check constraint.

The branches that added each wrote their own constraint; this one holds both. SQLite rebuilds
the event table to change the constraint and drops its triggers with it, so the append-only
trigger (with the hash chain's `prev_hash` among the frozen columns) is put back last, on
PostgreSQL as well, whichever order the 0008 migrations ran in.
"""

import importlib

from django.db import migrations, models

append_only = importlib.import_module("battles.migrations.0002_event_log_append_only")
chain = importlib.import_module("battles.migrations.0008_live_table_hash_chain")

KINDS = ["CHECK", "ACTIVATION", "ADJUSTMENT", "VOID"]


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0009_merge_live_consent_adjust_history"),
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
                    ("VOID", "Void"),
                ],
                default="CHECK",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="battleevent",
            constraint=models.CheckConstraint(
                condition=models.Q(kind__in=KINDS), name="battle_event_kind_valid"
            ),
        ),
        migrations.RunPython(
            append_only._run({"postgresql": chain.PG_UP, "sqlite": chain.SQLITE_UP}),
            migrations.RunPython.noop,
        ),
    ]
