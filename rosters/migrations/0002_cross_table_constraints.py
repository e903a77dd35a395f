"""Install the cross-table rules of rosters.db_constraints (composite FKs / triggers)."""

from django.db import migrations


def install(apps, schema_editor):
    from rosters import db_constraints

    db_constraints.install(schema_editor.connection)


def uninstall(apps, schema_editor):
    from rosters import db_constraints

    db_constraints.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("rosters", "0001_initial"),
        ("campaigns", "0001_initial"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
