"""Muster's one settings module: everything comes from the environment (django-environ).

With nothing set, Muster runs on the embedded defaults: SQLite in the git-ignored `var/` folder,
a development secret key generated into `var/`, and Celery tasks run inline (eager).
`DATABASE_URL` and `REDIS_URL` switch to PostgreSQL and a real Redis broker. A bad value fails
loudly at start rather than running half-configured.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("MUSTER_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=False)
PRODUCTION = env.bool("MUSTER_PRODUCTION", default=False)


def _secret_key() -> str:
    """Return SECRET_KEY from the environment; outside production, a generated local key."""
    key: str = env.str("SECRET_KEY", default="")
    if key:
        return key
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when MUSTER_PRODUCTION is on")
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    # Swagger UI and Redoc as static files of our own: /api/docs/ works without internet.
    "drf_spectacular_sidecar",
    "simple_history",
    "django_htmx",
    "axes",
    "allauth",
    "allauth.account",
    "campaigns",
    "rosters",
    "battles",
    "league",
    "chronicle",
    "printing",
    "pages",
    "ratings",
    "notices",
    # Above the apps: the whole-campaign backup reads rosters, battles, campaigns and the league.
    "campaign_backup",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outside WhiteNoise: pages, API answers and (in `make demo`, where WhiteNoise serves the
    # files as they lie) static files go out gzipped; a pre-compressed file is left as it is.
    "config.compression.PageCompressionMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A JSON body too big, too deep or holding unencodable text gets a 400 before any view.
    "config.json_guard.JsonGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'muster.sqlite3'}"),
}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
# Persistent connections save a PostgreSQL connect (several ms) per request; production sets
# CONN_MAX_AGE (docker-compose.yml), and a connection is checked before each request reuses it.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["CONN_MAX_AGE"] != 0
# DATABASE_POOL=N: a pool of up to N PostgreSQL connections per process (psycopg_pool). Under
# ASGI (the web) each request's sync code runs on a thread of its own, so a kept connection
# (CONN_MAX_AGE) would leak with its thread, and without one every request connects anew
# (40 ms on a loaded machine, bench/live.py), twice per table action (the form, then the
# table); the pool hands a connection back on close. The live streams' log reads keep
# connections of their own, outside the pool (docs/deploy.md, docs/operations.md).
DATABASE_POOL = env.int("DATABASE_POOL", default=0)
if DATABASE_POOL < 0:
    raise ImproperlyConfigured(f"DATABASE_POOL must be 0 (no pool) or more, not {DATABASE_POOL}")
if DATABASE_POOL:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_POOL needs PostgreSQL (a postgres:// DATABASE_URL)")
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured("DATABASE_POOL replaces CONN_MAX_AGE: set CONN_MAX_AGE=0")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DATABASE_POOL),
        "max_size": DATABASE_POOL,
        "timeout": 10,  # seconds a request waits for a free connection before it fails
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: a locked-out username+address is refused before the password is checked.
# django-allauth's backend is Django's model backend that also signs in by e-mail address.
AUTHENTICATION_BACKENDS = [
    "config.auth.RateLimitBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Accounts (django-allauth): sign up, sign in by username or e-mail, password reset --------
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# The address is confirmed by a link, but an unconfirmed one does not stop anyone playing.
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
ACCOUNT_ADAPTER = "pages.accounts.InvitationAwareAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "pages.signup.SignupExtras"
ACCOUNT_FORMS = {"login": "pages.accounts.SignInForm", "signup": "pages.accounts.QuietSignupForm"}
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Muster] "
# Failed sign-ins are limited by django-axes (below), which answers with its lockout page;
# allauth's own counter would refuse the same attempts first with a vaguer form error.
# Sign-ups per address (allauth counts them in the default cache, shared below): a bot cannot
# open accounts by the hundred. THROTTLE_SIGNUPS in allauth's form, e.g. "5/h/ip".
ACCOUNT_RATE_LIMITS = {
    "login_failed": None,
    "signup": env.str("THROTTLE_SIGNUPS", default="5/h/ip"),
}
# Sign-up with an address already registered answers exactly as a new one does
# (pages.accounts.QuietSignupForm); the address's owner is told by e-mail instead.
ACCOUNT_PREVENT_ENUMERATION = True
# allauth's idea of the client's address: the same proxies as axes and the API throttles.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("AXES_PROXY_COUNT", default=0)

# E-mail (sign-up confirmation, password reset): printed on the console unless EMAIL_URL names
# a server, e.g. smtp+tls://user:password@smtp.example.org:587 (django-environ's email_url).
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Muster <muster@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production serves what the image's collectstatic gathered into STATIC_ROOT; anywhere else
# (`make demo`, tests) WhiteNoise finds the files where they live, so no collectstatic step
# is needed and the pages are styled even with DEBUG off.
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=not PRODUCTION)
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Celery -----------------------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL or None)
# Without a broker, tasks run inline: a newcomer's first run needs no Redis.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
# A child is replaced after this many tasks: WeasyPrint's memory does not all come back.
CELERY_WORKER_MAX_TASKS_PER_CHILD = env.int("CELERY_WORKER_MAX_TASKS_PER_CHILD", default=100)
# One message at a time per process: a post-battle task held by a busy (or dying) process is a
# task no idle process can take. acks_late is set per task, only on the idempotent ones.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# For those acks_late tasks, a child killed by the OS (OOM, SIGKILL) gives its message back.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Nobody reads task return values (state lives in the database): don't store them in Redis.
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Webhook deliveries and notice e-mails wait on other people's servers: they have their own
# queue (and their own worker, docker-compose.yml), so a slow receiver never delays the
# post-battle rolls, print jobs or sweeps on the default queue.
CELERY_TASK_DEFAULT_QUEUE = "celery"
NOTIFY_QUEUE = "notices"
CELERY_TASK_ROUTES = {
    "notices.deliver_to_hook": {"queue": NOTIFY_QUEUE},
    "notices.email_notice": {"queue": NOTIFY_QUEUE},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Celery beat: sweep battles that were finished but never picked up, or whose worker died.
CELERY_BEAT_SCHEDULE = {
    "battles-sweep": {"task": "battles.sweep_battles", "schedule": timedelta(minutes=2)},
    "print-jobs-sweep": {"task": "printing.sweep_print_jobs", "schedule": timedelta(minutes=5)},
    # /healthz reports the age of the last heartbeat a worker wrote (config.heartbeat).
    "worker-heartbeat": {"task": "config.heartbeat", "schedule": timedelta(seconds=30)},
    "notify-sweep": {"task": "notices.sweep_deliveries", "schedule": timedelta(minutes=5)},
    # A restore whose message was lost with the broker is queued again (docs/import-export.md).
    "restore-jobs-sweep": {
        "task": "campaign_backup.sweep_restore_jobs",
        "schedule": timedelta(minutes=5),
    },
}
# Webhooks (docs/notifications.md): the receiver's time limit, and how many failures in a row
# switch a hook off. With eager tasks, deliveries run on a background thread after the commit.
# The timeout is one wall-clock deadline for the whole delivery, a slow drip included.
NOTIFY_TIMEOUT_SECONDS = env.float("NOTIFY_TIMEOUT_SECONDS", default=5.0)
#: Host names a hook may post to although they resolve to loopback or private addresses (a
#: club's own bot on its own network); every other internal address is refused.
NOTIFY_INTERNAL_HOSTS = env.list("NOTIFY_INTERNAL_HOSTS", default=[])
NOTIFY_DISABLE_AFTER = env.int("NOTIFY_DISABLE_AFTER", default=5)
NOTIFY_BACKOFF_SECONDS = env.int("NOTIFY_BACKOFF_SECONDS", default=30)
NOTIFY_EAGER_IN_BACKGROUND = env.bool("NOTIFY_EAGER_IN_BACKGROUND", default=True)
#: /healthz calls the worker stale when its last heartbeat is older than this.
HEARTBEAT_STALE_SECONDS = env.int("HEARTBEAT_STALE_SECONDS", default=120)
#: A battle PROCESSING for longer than this is taken to have lost its worker and is re-queued.
BATTLES_STALE_MINUTES = env.int("BATTLES_STALE_MINUTES", default=10)

# --- REST framework ---------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.KeysetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "config.filters.DjangoFilterBackend",
        "config.filters.SearchFilter",
        "config.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.exceptions.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["common.throttling.ScopedRateThrottle"],
    # Behind the TLS proxy, an anonymous caller is counted by the address the proxy saw. 0 (no
    # proxy) means REMOTE_ADDR; None would make DRF trust a client's own X-Forwarded-For.
    "NUM_PROXIES": env.int("AXES_PROXY_COUNT", default=0),
}
# API throttling (common.throttling): requests per caller (user, or address when anonymous)
# per scope, as "N/second|minute|hour|day"; docs/security.md. API_THROTTLE_ENABLED=false is
# for load benches only.
API_THROTTLE_ENABLED = env.bool("API_THROTTLE_ENABLED", default=True)
API_THROTTLE_RATES = {
    "reads": env.str("THROTTLE_READS", default="600/minute"),
    "writes": env.str("THROTTLE_WRITES", default="120/minute"),
    "pdfs": env.str("THROTTLE_PDFS", default="20/minute"),
    "imports": env.str("THROTTLE_IMPORTS", default="10/minute"),
    "simulate": env.str("THROTTLE_SIMULATE", default="20/minute"),
}
API_THROTTLE_CACHE = "throttle"
# The throttle counts live in Redis when there is one (shared by every gunicorn worker and
# machine), in this process's memory otherwise.
# The default cache holds counts that must be shared by every process (sign-ups per address,
# the page throttles): Redis when there is one, else a database table (created by the
# `pages` migration 'cache_table'), never one process's memory.
REDIS_POOL = "config.redis_pool.SharedConnectionPool"
SHARED_CACHE = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "muster",
        # One pool per process, not per request (under ASGI a cache object lives for one
        # request's context): config/redis_pool.py.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "pool_class": REDIS_POOL},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "muster_cache"}
)
CACHES = {
    "default": SHARED_CACHE,
    API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "muster-throttle",
        # A dead Redis must not hold a request for long: throttling then steps aside.
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "pool_class": REDIS_POOL},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"},
}
# Sessions: with Redis, read through the cache (cached_db), so a signed-in request does not
# query PostgreSQL for its session: one query of every page and of both requests of a table
# action (bench/club_night.py --costs). The database stays the record: a Redis flush or
# outage costs a re-read (Django falls back to it on a cache error), never a sign-out.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL
    else "django.contrib.sessions.backends.db"
)
SPECTACULAR_SETTINGS = {
    "TITLE": "Muster API",
    "DESCRIPTION": "Forces, characters, campaigns, battles and printing for skirmish wargames.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every operation documents the shared error answers (400/401/403/404, 409 on writes).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.document_error_responses",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a `status`; name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "CharacterStatusEnum": "rosters.models.CharacterStatus",
        "CampaignStatusEnum": "campaigns.models.CampaignStatus",
        "ServiceRecordCauseEnum": "rosters.models.EntryCause",
        "MembershipRoleEnum": "campaigns.models.Role",
        "BattleStatusEnum": "battles.models.BattleStatus",
        "PrintJobStatusEnum": "printing.models.PrintJobStatus",
    },
}

# --- Security (tightened by MUSTER_PRODUCTION) ------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# Uploads: Django refuses bodies above this; the photo check (rosters.photos) is stricter still.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=10 * 1024 * 1024)
#: Form fields per request: the house-rules editor sends one per cell of every editable table
#: (a few thousand at most, tests/pages/test_house_rules_page.py); Django's default is 1000.
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DATA_UPLOAD_MAX_NUMBER_FIELDS", default=10_000)
#: JSON bodies (config.json_guard): larger or deeper ones are refused with a 400.
JSON_MAX_BYTES = env.int("JSON_MAX_BYTES", default=2 * 1024 * 1024)
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=32)
#: Largest character photo accepted, in bytes, before it is re-encoded.
PHOTO_MAX_BYTES = env.int("PHOTO_MAX_BYTES", default=5 * 1024 * 1024)

# Login rate limiting (django-axes): 5 failures against one account (whatever its spelling:
# case, spaces, username or e-mail, config.auth.account_key), or 5 from one address, lock
# that account, or that address, out for 15 minutes. AXES_ENABLED=false is for load benches
# only; tests keep it on.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "config.auth.account_key"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind a TLS proxy (docs/deploy.md) the client's address is in X-Forwarded-For; count the
# proxies so a client cannot forge its own address. 0: take REMOTE_ADDR as it is.
AXES_IPWARE_PROXY_COUNT = env.int("AXES_PROXY_COUNT", default=0) or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    if env.int("AXES_PROXY_COUNT", default=0)
    else ["REMOTE_ADDR"]
)
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if not CSRF_TRUSTED_ORIGINS:
        raise ImproperlyConfigured(
            "CSRF_TRUSTED_ORIGINS must name the site's https:// origin when MUSTER_PRODUCTION is on"
        )

# --- Logging ----------------------------------------------------------------------------------
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
# json: one object per line, with each record's structured fields (config.logs); plain: for eyes.
LOG_FORMAT = env.str("LOG_FORMAT", default="json" if PRODUCTION else "plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"()": "config.logs.KeyValueFormatter"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # WeasyPrint and fontTools narrate every render step at INFO.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

if ACCOUNT_EMAIL_VERIFICATION not in {"none", "optional", "mandatory"}:
    raise ImproperlyConfigured(
        "ACCOUNT_EMAIL_VERIFICATION must be none, optional or mandatory, "
        f"not {ACCOUNT_EMAIL_VERIFICATION!r}"
    )
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(f"LOG_LEVEL must be a logging level name, not {LOG_LEVEL!r}")
if LOG_FORMAT not in {"json", "plain"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or plain, not {LOG_FORMAT!r}")
