from django.apps import AppConfig


class CampaignBackupConfig(AppConfig):
    """The campaign backup and its `export_campaign` / `import_campaign` commands."""

    name = "campaign_backup"
    default_auto_field = "django.db.models.BigAutoField"
