"""Settings for worker processes the integration tests start: the project's, plus pauses.

`MUSTER_BATTLES_PAUSE_AFTER_CLAIM` (seconds) makes the post-battle task wait between claiming a
battle and committing its rolls, so a test can SIGKILL the worker at a known point.
`MUSTER_RESTORE_PAUSE_PER_STEP` (seconds) makes a restore wait after each progress step, so a
test can watch its progress and SIGKILL it half way.
"""

from config.settings import *  # noqa: F403
from config.settings import env

BATTLES_PAUSE_AFTER_CLAIM = env.float("MUSTER_BATTLES_PAUSE_AFTER_CLAIM", default=0.0)
RESTORE_PAUSE_PER_STEP = env.float("MUSTER_RESTORE_PAUSE_PER_STEP", default=0.0)
