"""Production settings: `manage.py check --deploy` is clean, and a missing secret fails loudly.

Each case starts a fresh `manage.py` with the production environment, because the settings
module reads the environment once, at import.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "MUSTER_PRODUCTION": "true",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "muster.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://muster.example.org",
}


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests' conftest; never in a deployment.
    harness = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k not in harness}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_nothing_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}

    result = _manage("check", **env)

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_without_csrf_trusted_origins():
    env = {k: v for k, v in PRODUCTION.items() if k != "CSRF_TRUSTED_ORIGINS"}

    result = _manage("check", **env)

    assert result.returncode != 0
    assert "CSRF_TRUSTED_ORIGINS" in result.stderr


def test_production_settings_turn_on_hsts_secure_cookies_and_the_https_redirect():
    probe = (
        "from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT, s.CSRF_TRUSTED_ORIGINS, s.DEBUG)"
    )

    result = _manage("shell", "--verbosity", "0", "-c", probe, **PRODUCTION)

    assert result.stdout.split() == [
        "31536000",
        "True",
        "True",
        "True",
        "['https://muster.example.org']",
        "False",
    ], result.stderr


def test_production_serves_only_collected_static_files():
    probe = "from django.conf import settings as s; print(s.WHITENOISE_USE_FINDERS)"

    result = _manage("shell", "--verbosity", "0", "-c", probe, **PRODUCTION)

    assert result.stdout.split() == ["False"], result.stderr
