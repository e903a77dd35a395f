# One image for web, worker and beat (docker-compose.yml picks the command).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    MUSTER_VAR_DIR=/var/lib/muster

# WeasyPrint needs Pango; fonts-dejavu and fonts-liberation2 are the print fonts Muster names.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 \
      libharfbuzz0b fonts-dejavu-core fonts-liberation2 \
 && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 muster && mkdir -p /var/lib/muster /app \
 && chown muster:muster /var/lib/muster /app
WORKDIR /app

# Every version pinned by requirements.lock (`make lock`); the project itself adds nothing to it.
COPY pyproject.toml README.md requirements.lock ./
RUN pip install --upgrade pip && pip install -r requirements.lock && pip install --no-deps . \
 && pip check
COPY --chown=muster:muster . .
# The image writes no bytecode at run time (PYTHONDONTWRITEBYTECODE), so compile it once here:
# otherwise every cold `python -m rules ...` and every worker start compiles the project's source.
RUN python -m compileall -q -j 0 -x '(^|/)tests/' .

# collectstatic needs a key only to import settings; the real one comes from the environment.
RUN SECRET_KEY=build-only-not-secret MUSTER_PRODUCTION=true \
    CSRF_TRUSTED_ORIGINS=https://build.invalid python manage.py collectstatic --noinput

USER muster
EXPOSE 8000
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", \
     "--workers", "3", "--timeout-graceful-shutdown", "10"]
