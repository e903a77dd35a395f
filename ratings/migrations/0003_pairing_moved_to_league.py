"""The rated game's pairing is `league.Pairing` now (league.migrations.0001): the same table,
so only Django's state changes; the column and its foreign key stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0001_initial"),
        ("ratings", "0002_history_is_protected"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="ratedgame",
                    name="pairing",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rated_game",
                        to="league.pairing",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
