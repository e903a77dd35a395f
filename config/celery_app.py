"""The Celery app: JSON only, settings from Django's `CELERY_*`, tasks found in each app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker heartbeat /healthz reads lives in config/, which is not a Django app.
app.autodiscover_tasks(["config"], related_name="heartbeat")
