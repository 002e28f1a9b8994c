#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback: .ci/run sources this file and calls start_postgres
# before the tests; the benchmarks run it (`bash .ci/postgres.sh`), which starts the cluster and
# prints TEST_DATABASE_URL on stdout. Idempotent: a cluster already running from an earlier run is
# reused. With CI=true a PostgreSQL that cannot start fails the run; elsewhere start_postgres
# returns 1 (and the caller carries on without PostgreSQL).
PG_PORT=${PGTEST_PORT:-54329}
PG_DIR=${PGTEST_DIR:-/tmp/turkish-table-bot-ci-postgres}

pg_fail() {
    echo "ci: PostgreSQL: $*" >&2
    if [ "${CI:-}" = "true" ]; then exit 1; fi
    echo "ci: continuing without PostgreSQL (its tests will be skipped)" >&2
    return 1
}

start_postgres() {
    if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
        [ "$(id -u)" = 0 ] || { pg_fail "not installed and not root to install it"; return 1; }
        echo "ci: installing PostgreSQL from Debian's packages"
        apt-get update -qq || { pg_fail "apt-get update failed"; return 1; }
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null \
            || { pg_fail "apt-get install postgresql failed"; return 1; }
    fi
    local bin as=()
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
    if ! "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR" status >/dev/null 2>&1; then
        if [ ! -f "$PG_DIR/PG_VERSION" ]; then
            rm -rf "$PG_DIR" && mkdir -p "$PG_DIR"
            [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
            "${as[@]}" "$bin/initdb" -D "$PG_DIR" -U postgres -A trust -E UTF8 --no-sync >/dev/null \
                || { pg_fail "initdb failed"; return 1; }
        fi
        "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null \
            || { tail -n 20 "$PG_DIR/server.log" >&2 || true; pg_fail "server did not start"; return 1; }
    fi
    local psql=("$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -tAq -v ON_ERROR_STOP=1)
    if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'ttb'")" != 1 ]; then
        "${psql[@]}" -c "CREATE ROLE ttb LOGIN CREATEDB" || { pg_fail "cannot create role"; return 1; }
    fi
    # Each test session creates (and drops) its own database, so parallel runs never collide.
    "${psql[@]}" -c "ALTER ROLE ttb CREATEDB" || { pg_fail "cannot grant CREATEDB"; return 1; }
    if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'ttb_test'")" != 1 ]; then
        "${psql[@]}" -c "CREATE DATABASE ttb_test OWNER ttb" || { pg_fail "cannot create db"; return 1; }
    fi
    export TEST_DATABASE_URL="postgresql+asyncpg://ttb@127.0.0.1:$PG_PORT/ttb_test"
    echo "ci: PostgreSQL ready at $TEST_DATABASE_URL"
}

# Run (not sourced): start or reuse the cluster and print its test database URL.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    start_postgres >&2
    echo "$TEST_DATABASE_URL"
fi
