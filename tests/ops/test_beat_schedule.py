"""Every task celery beat is told to run exists: a renamed or moved task must not leave beat
sending a name no worker knows (the sweep that recovers lost work would silently stop)."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery_app import app


@pytest.mark.parametrize("entry", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_every_scheduled_task_is_registered(entry):
    app.loader.import_default_modules()
    task = settings.CELERY_BEAT_SCHEDULE[entry]["task"]

    assert task in app.tasks, f"beat entry {entry!r} names {task!r}, which no app registers"
