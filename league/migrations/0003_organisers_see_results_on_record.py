"""Organisers see a pairing's results on record (`ResultEntry`) in the admin: read only, as
`campaigns.services.clubs.ORGANISER_PERMISSIONS` lists for groups made after this."""

from django.db import migrations

PERMISSIONS = ("view_resultentry",)


def allow_organisers(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("league")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Organisers")
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="league", codename__in=PERMISSIONS)
    )


def forbid_organisers(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name="Organisers"):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="league", codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0002_result_entries"),
    ]
    operations = [migrations.RunPython(allow_organisers, forbid_organisers)]
