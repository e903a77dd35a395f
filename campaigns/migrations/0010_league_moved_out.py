"""The league's models left for the league app (league.migrations.0001): campaigns forgets
them. State only: their tables keep their names and every row (`Meta.db_table`)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0009_campaign_copy_of"),
        ("league", "0001_initial"),
        # The rated game's foreign key points at league.Pairing before campaigns.Pairing goes.
        ("ratings", "0003_pairing_moved_to_league"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="PairingReport"),
                migrations.DeleteModel(name="Pairing"),
                migrations.DeleteModel(name="Round"),
                migrations.DeleteModel(name="LeagueAdjustment"),
                migrations.DeleteModel(name="League"),
            ],
            database_operations=[],
        ),
    ]
