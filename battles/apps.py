from datetime import timedelta

from django.apps import AppConfig

#: How often Celery beat runs the sweep (the lead may move this into settings).
SWEEP_EVERY = timedelta(minutes=2)


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        from config.celery_app import app

        # A beat entry that does not overwrite one the settings may already define.
        app.conf.beat_schedule.setdefault(
            "battles-sweep", {"task": "battles.sweep_battles", "schedule": SWEEP_EVERY}
        )
