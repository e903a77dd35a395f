"""The ASGI application: what uvicorn serves (`make demo`, docker-compose.yml).

Under ASGI the live table's event stream (pages/live.py) is a coroutine waiting on the
doorbell, so an open stream never holds a worker; ordinary views run in threads as before.

`MUSTER_PROFILE_DIR=<dir>` (bench/live.py --profile, never in production) profiles every
thread of each worker process with cProfile, in CPU time: the event loop (uvicorn, Django's
ASGI handler, the streams) and the threads the sync views and the log reads run on. SIGUSR2
forgets what was profiled so far (the start-up); SIGUSR1 writes `<dir>/worker-<pid>.pstats`.

Each worker loads its views and templates and freezes what it loaded before its first
request (`config.boot.warm`).
"""

import os

from django.core.asgi import get_asgi_application


def _profile_every_thread(directory: str) -> None:
    import cProfile
    import pstats
    import signal
    import sys
    import threading
    import time

    class Kept(cProfile.Profile):
        """A profile that pstats reads without stopping it (the worker goes on)."""

        def create_stats(self) -> None:
            self.snapshot_stats()

    # CPU time, not wall time: a thread waiting on a lock or a socket costs nothing.
    profiles = [Kept(time.thread_time)]

    def start(*_: object) -> None:
        # A thread's first call: hand the thread to a profiler of its own (cProfile profiles
        # only the thread that enables it).
        sys.setprofile(None)
        profile = Kept(time.thread_time)
        profiles.append(profile)
        profile.enable()

    def dump(*_: object) -> None:
        stats = pstats.Stats()
        for profile in profiles:
            if profile.getstats():  # pstats refuses an empty one (a thread idle since SIGUSR2)
                stats.add(profile)
        stats.dump_stats(os.path.join(directory, f"worker-{os.getpid()}.pstats"))

    def clear(*_: object) -> None:
        for profile in profiles:
            profile.clear()

    # On SIGUSR1, not at exit: uvicorn ends a worker by re-raising the SIGTERM it caught.
    # SIGUSR2 forgets what was profiled so far (the start-up), so a run profiles its window.
    signal.signal(signal.SIGUSR1, dump)
    signal.signal(signal.SIGUSR2, clear)
    threading.setprofile(start)
    profiles[0].enable()


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if os.environ.get("MUSTER_PROFILE_DIR"):
    _profile_every_thread(os.environ["MUSTER_PROFILE_DIR"])
application = get_asgi_application()

from config.boot import warm  # noqa: E402 - Django must be set up first

warm()
