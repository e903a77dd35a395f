"""Battle.dice_scheme: which derivation turns the seed into dice (rules.dice.SCHEMES).

Every battle already in the database was rolled with scheme 1 (HMAC-SHA256) and keeps it, so
its audit still re-derives the same dice; battles set up from now on use the current scheme.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("battles", "0003_battlefigure_dice_key")]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="dice_scheme",
            field=models.PositiveSmallIntegerField(default=1, editable=False),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="battle",
            name="dice_scheme",
            field=models.PositiveSmallIntegerField(
                default=2,
                editable=False,
                help_text="1: HMAC-SHA256 blocks; 2: SHAKE-256 blocks (rules/dice.py).",
            ),
        ),
    ]
