"""The "Organisers" group: the model permissions an organiser needs in the admin.

Which campaigns they may touch is decided per request by the campaign admin (their own
campaigns only); the group only opens the doors. The list is frozen here as it stood when the
migration was written; `campaigns.services.clubs.ORGANISER_PERMISSIONS` is the live copy.
"""

from django.db import migrations

PERMISSIONS = (
    "view_club",
    "view_campaign", "change_campaign",
    "view_membership", "add_membership", "change_membership", "delete_membership",
    "view_league", "add_league", "change_league",
    "view_leagueadjustment", "add_leagueadjustment", "change_leagueadjustment",
    "delete_leagueadjustment",
    "view_round", "add_round", "change_round", "delete_round",
    "view_pairing", "add_pairing", "change_pairing", "delete_pairing",
)


def add_organisers(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations ran; make this app's now.
    config = apps.get_app_config("campaigns")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="Organisers")
    group.permissions.add(*Permission.objects.filter(
        content_type__app_label="campaigns", codename__in=PERMISSIONS))


def remove_organisers(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Organisers").delete()


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("campaigns", "0002_league"),
    ]

    operations = [migrations.RunPython(add_organisers, remove_organisers)]
