"""The Celery app: JSON only, settings from Django's `CELERY_*`, tasks found in each app."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker heartbeat /healthz reads lives in config/, which is not a Django app.
app.autodiscover_tasks(["config"], related_name="heartbeat")


@worker_process_init.connect(weak=False)
def _warm(**_: object) -> None:
    # Each pool process, before its first task: templates compiled, print caches filled, and
    # all of it frozen out of the collector's walks (config/boot.py says why).
    from config.boot import warm_worker

    warm_worker()
