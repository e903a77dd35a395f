"""BattleFigure.dice_key: post-battle dice derive from it instead of the character's id.

Existing figures get their character's id as the key, which is exactly the context their
ledger was rolled with, so every audit still re-derives the same dice.
"""

from django.db import migrations, models
from django.db.models.functions import Cast


def keys_from_characters(apps, schema_editor):
    figure = apps.get_model("battles", "BattleFigure")
    figure.objects.filter(character__isnull=False).update(
        dice_key=Cast("character_id", models.CharField(max_length=40))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0002_event_log_append_only"),
        ("rosters", "0002_cross_table_constraints"),
    ]

    operations = [
        migrations.AddField(
            model_name="battlefigure",
            name="dice_key",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text="Post-battle dice derive from (seed, this key); empty for unnamed extras.",
                max_length=40,
            ),
        ),
        migrations.RunPython(keys_from_characters, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="battlefigure",
            constraint=models.UniqueConstraint(
                condition=models.Q(("dice_key", ""), _negated=True),
                fields=("battle", "dice_key"),
                name="battle_figure_dice_key_once",
            ),
        ),
    ]
