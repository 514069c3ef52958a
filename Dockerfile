# The bot in a small image: Python 3.11 slim, DejaVu fonts for names on pictures, a non-root user.

# The package as a wheel, built where there is a C compiler: mypyc compiles the engine's core (setup.py);
# the catalogues' .mo files are compiled too, so the image speaks every language.
FROM python:3.11 AS wheel
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY renderer renderer
COPY storage storage
COPY bot bot
COPY locales locales
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=wheel /wheels /wheels
RUN pip install /wheels/*.whl \
    && rm -rf /wheels \
    && python -c "import engine.core, sys; sys.exit(not engine.core.COMPILED)" \
    && useradd --create-home --uid 10001 dominoes \
    && mkdir -p /data \
    && chown dominoes:dominoes /data

USER dominoes
ENV DATABASE_URL=sqlite:////data/dominoes.sqlite3 \
    HEARTBEAT_FILE=/tmp/dominoes-bot.heartbeat
VOLUME ["/data"]
# Webhook mode only (WEBHOOK_URL set): POST <path of WEBHOOK_URL> and GET /health on WEBHOOK_PORT.
# Long polling, the default, listens on nothing.
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["python", "-m", "bot.health"]
CMD ["dominoes-bot"]
