from django.apps import AppConfig


class CampaignBackupConfig(AppConfig):
    """The campaign backup's `export_campaign` / `import_campaign` commands, and `seed_demo`."""

    name = "campaign_backup"
    default_auto_field = "django.db.models.BigAutoField"
