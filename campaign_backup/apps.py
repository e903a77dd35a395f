from django.apps import AppConfig


class CampaignBackupConfig(AppConfig):
    """Campaign backups (download, restore as a copy on the worker with progress, the
    `export_campaign` / `import_campaign` commands) and `seed_demo`."""

    name = "campaign_backup"
    verbose_name = "Campaign backups"
    default_auto_field = "django.db.models.BigAutoField"
