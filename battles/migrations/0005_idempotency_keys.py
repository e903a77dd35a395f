"""Idempotency keys: a table form sent twice (double tap, a phone retrying) is applied once.

SQLite rebuilds the event table to add the columns, which drops its append-only trigger;
the last operation puts it back (PostgreSQL keeps its trigger through ALTER TABLE).
"""

import importlib

from django.conf import settings
from django.db import migrations, models

append_only = importlib.import_module("battles.migrations.0002_event_log_append_only")


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0004_battle_dice_scheme"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="finish_key",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="battleevent",
            name="request_key",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="battleevent",
            name="void_key",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddConstraint(
            model_name="battleevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("request_key", ""), _negated=True),
                fields=("battle", "request_key"),
                name="battle_event_request_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="battleevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("void_key", ""), _negated=True),
                fields=("battle", "void_key"),
                name="battle_event_void_once",
            ),
        ),
        migrations.RunPython(
            append_only._run({"sqlite": append_only.SQLITE_UP}), migrations.RunPython.noop
        ),
    ]
