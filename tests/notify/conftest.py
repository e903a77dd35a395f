from __future__ import annotations

import pytest

from tests.notify.receiver import Receiver, start_receiver


@pytest.fixture(autouse=True)
def receivers_on_loopback_are_allowed(settings):
    """The test receivers listen on 127.0.0.1, an internal address hooks may not use unless
    it is named in NOTIFY_INTERNAL_HOSTS (as a club names its own bot)."""
    settings.NOTIFY_INTERNAL_HOSTS = ["127.0.0.1"]


@pytest.fixture
def receiver():
    found = Receiver()
    server = start_receiver(found)
    yield found
    found.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def inline_delivery(settings):
    """Run delivery tasks where they are dispatched (eager, no background thread), with
    Celery's eager retries followed inline as a worker would follow them later."""
    from notices.tasks import deliver_to_hook

    settings.NOTIFY_EAGER_IN_BACKGROUND = False
    settings.NOTIFY_TIMEOUT_SECONDS = 2.0
    conf = deliver_to_hook.app.conf
    before = conf.task_eager_propagates
    conf.task_eager_propagates = False
    yield
    conf.task_eager_propagates = before
