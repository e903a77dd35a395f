"""The ASGI application: what uvicorn serves (`make demo`, docker-compose.yml).

Under ASGI the live table's event stream (pages/live.py) is a coroutine waiting on the
doorbell, so an open stream never holds a worker; ordinary views run in threads as before.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
