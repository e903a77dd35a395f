"""Organisers add and fix their campaigns' webhooks in the admin, and see the deliveries."""

from django.db import migrations

PERMISSIONS = (
    "view_webhook",
    "add_webhook",
    "change_webhook",
    "delete_webhook",
    "view_delivery",
)


def allow_organisers(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("notices")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Organisers")
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="notices", codename__in=PERMISSIONS)
    )


def forbid_organisers(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name="Organisers"):
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="notices", codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0001_webhooks_ledger_and_notices"),
        ("campaigns", "0003_organisers_group"),
    ]
    operations = [migrations.RunPython(allow_organisers, forbid_organisers)]
