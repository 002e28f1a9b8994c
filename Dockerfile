# The bot as a container image: `docker compose up -d` (compose.yaml) or `make image-test`.
# BASE is any Debian-like image with python3 (3.11+), its venv module and CA certificates:
# the official python image by default; `make image-test` builds one with debootstrap.
ARG BASE=docker.io/library/python:3.12-slim

# --- the Discord Activity's SDK, bundled from its lockfile exactly as `make activity-sdk` does
FROM ${BASE} AS sdk
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null \
    && rm -rf /var/lib/apt/lists/*
# node trusts the system's CA bundle too (a registry reached through a TLS-inspecting proxy)
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
WORKDIR /src/bot/adapters/web/activity
COPY bot/adapters/web/activity/package.json bot/adapters/web/activity/package-lock.json \
     bot/adapters/web/activity/sdk-entry.js ./
RUN mkdir -p ../static/vendor \
    && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error \
    && npm run --silent build

# --- the project and its dependencies in a virtual environment (no compilers needed: wheels)
FROM ${BASE} AS build
RUN python3 -m venv /opt/masa && /opt/masa/bin/python -m pip install --quiet --upgrade pip
WORKDIR /src
COPY pyproject.toml README.md ./
COPY games games
COPY storage storage
COPY bot bot
COPY --from=sdk /src/bot/adapters/web/static/vendor bot/adapters/web/static/vendor
RUN /opt/masa/bin/python -m pip install --quiet --no-cache-dir . \
    && /opt/masa/bin/python -m pip uninstall --quiet -y pip setuptools \
    && /opt/masa/bin/python -c "import bot, games, storage"

# --- the runtime: the venv and nothing else of the build, run as a user without privileges
FROM ${BASE}
RUN useradd --uid 10001 --no-create-home --home-dir /app --shell /usr/sbin/nologin masa \
    && mkdir -p /app /data && chown masa:masa /data
COPY --from=build /opt/masa /opt/masa
ENV PATH=/opt/masa/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/bot.db \
    WEB_LISTEN=0.0.0.0 \
    WEB_PORT=8080
# settings come from the environment, or from a .env mounted read-only at /app/.env
WORKDIR /app
VOLUME ["/data"]
EXPOSE 8080
USER masa
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('WEB_PORT', '8080'), timeout=4)"]
CMD ["python", "-m", "bot"]
