"""Settings for worker processes the integration tests start: the project's, plus a pause.

`MUSTER_BATTLES_PAUSE_AFTER_CLAIM` (seconds) makes the post-battle task wait between claiming a
battle and committing its rolls, so a test can SIGKILL the worker at a known point.
"""

from config.settings import *  # noqa: F403
from config.settings import env

BATTLES_PAUSE_AFTER_CLAIM = env.float("MUSTER_BATTLES_PAUSE_AFTER_CLAIM", default=0.0)
