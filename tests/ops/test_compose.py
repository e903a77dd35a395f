"""docker-compose.yml (a contract) agrees with the settings, the Makefile and the Dockerfile.

There is no Docker engine on the build machines, so this reads the files instead of running them.
"""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
SETTINGS = (ROOT / "config" / "settings.py").read_text()
ENV_EXAMPLE = (ROOT / ".env.example").read_text()


def _command(service):
    command = SERVICES[service]["command"]
    return " ".join(command) if isinstance(command, list) else command


def test_compose_has_the_six_services():
    assert set(SERVICES) == {"postgres", "redis", "web", "worker", "notify-worker", "beat"}


@pytest.mark.parametrize("service", ["postgres", "redis", "web", "worker", "notify-worker", "beat"])
def test_every_service_has_a_healthcheck(service):
    assert SERVICES[service]["healthcheck"]["test"]


@pytest.mark.parametrize("service", ["web", "worker", "notify-worker", "beat"])
def test_app_services_build_the_one_dockerfile(service):
    assert SERVICES[service]["build"] == "."
    assert (ROOT / "Dockerfile").exists()


@pytest.mark.parametrize("service", ["web", "worker", "notify-worker", "beat"])
def test_app_services_wait_for_healthy_postgres_and_redis(service):
    depends = SERVICES[service]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"


@pytest.mark.parametrize("service", ["web", "worker", "notify-worker", "beat"])
def test_app_services_set_only_variables_the_settings_read(service):
    for name in SERVICES[service]["environment"]:
        assert re.search(rf'"{name}"', SETTINGS), f"{service} sets {name}, settings never read it"


@pytest.mark.parametrize("service", ["worker", "notify-worker", "beat"])
def test_background_services_yield_the_cpu_to_the_web(service):
    # A print job must not stall the table: under contention the web gets four times the
    # background services' share (compose's default weight is 1,024).
    assert "cpu_shares" not in SERVICES["web"]
    assert SERVICES[service]["cpu_shares"] == 256


def test_env_example_names_only_variables_the_settings_or_compose_read():
    names = re.findall(r"^#?\s*([A-Z_]+)=", ENV_EXAMPLE, re.MULTILINE)
    compose_text = (ROOT / "docker-compose.yml").read_text()
    for name in names:
        assert f'"{name}"' in SETTINGS or f"${{{name}}}" in compose_text, name


def test_web_migrates_then_serves_the_asgi_app_with_uvicorn():
    # ASGI, so an open live-table stream never holds a synchronous worker (issue 28).
    command = _command("web")
    assert command.index("migrate") < command.index("uvicorn")
    assert "config.asgi:application" in command
    assert (ROOT / "config" / "asgi.py").exists()


def test_the_web_takes_its_database_connections_from_a_pool():
    # Under ASGI a connection kept per request thread leaks: no CONN_MAX_AGE, a pool instead.
    size = re.search(r"CONN_MAX_AGE=0 DATABASE_POOL=(\d+) ", _command("web"))
    assert size is not None and int(size.group(1)) > 0


def test_worker_prefetches_one_and_recycles_children():
    command = _command("worker")
    assert "-A config worker" in command
    assert "--prefetch-multiplier 1" in command
    assert "--max-tasks-per-child" in command


def test_beat_runs_the_celery_beat_of_the_config_app():
    assert "-A config beat" in _command("beat")


def test_webhook_deliveries_have_their_own_worker_so_the_post_battle_one_never_waits():
    from django.conf import settings

    queue = settings.CELERY_TASK_ROUTES["notices.deliver_to_hook"]["queue"]
    assert queue != settings.CELERY_TASK_DEFAULT_QUEUE
    assert _flag(_command("worker"), "-Q") == settings.CELERY_TASK_DEFAULT_QUEUE
    assert _flag(_command("notify-worker"), "-Q") == queue


def test_redis_never_evicts_and_persists():
    command = _command("redis")
    assert "--maxmemory-policy noeviction" in command
    assert "--appendonly yes" in command


def test_production_flag_is_on_for_the_app_services():
    app = COMPOSE["x-app"]
    assert app["environment"]["MUSTER_PRODUCTION"] == "true"
    assert "SECRET_KEY" in ENV_EXAMPLE


def test_database_and_broker_urls_point_at_the_compose_services():
    env = COMPOSE["x-app"]["environment"]
    assert "@postgres:5432/" in env["DATABASE_URL"]
    assert env["REDIS_URL"].startswith("redis://redis:6379/")


def test_app_services_keep_their_database_connections_between_requests():
    assert int(COMPOSE["x-app"]["environment"]["CONN_MAX_AGE"]) > 0


# --- consistency with the settings and the code (issue 9) -----------------------------------


def _flag(command: str, name: str) -> str:
    return re.search(rf"{name} (\S+)", command).group(1)


def test_the_worker_command_and_the_settings_agree_on_prefetch_and_recycling(settings):
    command = _command("worker")
    prefetch, recycle = (
        int(_flag(command, f)) for f in ("--prefetch-multiplier", "--max-tasks-per-child")
    )

    assert prefetch == settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert recycle == settings.CELERY_WORKER_MAX_TASKS_PER_CHILD


def test_acks_late_is_on_only_for_the_idempotent_claimed_tasks():
    from config.celery_app import app

    app.loader.import_default_modules()
    late = sorted(
        name
        for name, task in app.tasks.items()
        if not name.startswith("celery.") and task.acks_late
    )

    # Each claims its row first (a conditional UPDATE; the restore job `FOR UPDATE SKIP
    # LOCKED` inside its one transaction), so a redelivered message does nothing twice.
    assert late == [
        "battles.process_battle",
        "campaign_backup.restore_job_run",
        "notices.deliver_to_hook",
    ]


def test_every_beat_entry_names_a_registered_task(settings):
    from config.celery_app import app

    app.loader.import_default_modules()

    assert {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()} <= set(app.tasks)
    assert "battles.sweep_battles" in {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}


def test_the_web_healthcheck_is_the_projects_own_script():
    test = SERVICES["web"]["healthcheck"]["test"]

    assert test[:4] == ["CMD", "python", "-m", "config.healthcheck"]
    assert (ROOT / "config" / "healthcheck.py").exists()


def test_the_image_build_can_import_production_settings():
    dockerfile = (ROOT / "Dockerfile").read_text()
    build = re.search(r"RUN ([^\n]*\\\n)*[^\n]*collectstatic", dockerfile).group(0)

    for required in ("SECRET_KEY=", "MUSTER_PRODUCTION=true", "CSRF_TRUSTED_ORIGINS="):
        assert required in build


def test_the_env_example_names_what_production_requires():
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "POSTGRES_PASSWORD"):
        assert re.search(rf"^{name}=", ENV_EXAMPLE, re.MULTILINE), name


def test_the_image_compiles_the_project_once_as_it_writes_no_bytecode_at_run_time():
    dockerfile = (ROOT / "Dockerfile").read_text()

    assert "PYTHONDONTWRITEBYTECODE=1" in dockerfile
    copied = dockerfile.index("COPY --chown=muster:muster . .")
    assert dockerfile.index("python -m compileall") > copied
