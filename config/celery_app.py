"""The Celery app: JSON only, settings from Django's `CELERY_*`, tasks found in each app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
