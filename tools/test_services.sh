# Sourced by ./dev test: what the browser and database tests need.
#
# As root, install what is missing (Debian's Chromium for the browser tests,
# PostgreSQL for the database tests, nginx and openssl for the reverse-proxy
# recipe's test, tests/web/test_nginx.py, which runs nginx itself), start a local PostgreSQL with a
# `dragonante` role and a `dragonante_test` database, and point
# DRAGONANTE_TEST_PG_URL at it.  It says what it will do before doing it, and
# stop_test_services (run when ./dev test ends) stops the PostgreSQL it
# started.  Every step is idempotent; without root nothing is installed and
# those tests say in one line why they are skipped.
#   DRAGONANTE_NO_INSTALL=1     skip all of it (installs and the server)
#   DRAGONANTE_KEEP_SERVICES=1  leave the PostgreSQL it started running
#   DRAGONANTE_TEST_PG_URL=...  use your own database instead (nothing started)

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

is_root() { [ "$(id -u)" = 0 ]; }

install_missing() {
    local need=()
    [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
    [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx)
    command -v openssl >/dev/null 2>&1 || need+=(openssl)
    [ ${#need[@]} -eq 0 ] && return 0
    if ! is_root || ! command -v apt-get >/dev/null 2>&1; then
        echo "dev: cannot install ${need[*]} here (needs root and apt-get): those tests will be skipped" >&2
        return 0
    fi
    echo "dev: installing ${need[*]} with apt-get for the browser, database and proxy tests (DRAGONANTE_NO_INSTALL=1 skips this)"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null; } \
        || echo "dev: installing ${need[*]} failed: those tests will be skipped" >&2
}

start_postgres() {
    [ -n "${DRAGONANTE_TEST_PG_URL:-}" ] && return 0
    is_root && command -v pg_ctlcluster >/dev/null 2>&1 || return 0
    local version port
    version=$(ls /usr/lib/postgresql | sort -V | tail -1)
    pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main" \
        || pg_createcluster "$version" main >/dev/null
    port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
    if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -qx online; then
        echo "dev: starting PostgreSQL $version on port $port for the database tests; stopped when the run ends (DRAGONANTE_KEEP_SERVICES=1 keeps it, DRAGONANTE_NO_INSTALL=1 skips it)"
        pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
        STARTED_PG="$version"
    fi
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p "$port" && break
        sleep 1
    done
    pg_isready -q -h 127.0.0.1 -p "$port" || { echo "dev: PostgreSQL did not start" >&2; return 0; }
    local psql=(runuser -u postgres -- psql -p "$port" -qtA)
    "${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'dragonante'" | grep -q 1 \
        || "${psql[@]}" -c "CREATE ROLE dragonante LOGIN PASSWORD 'dragonante'" >/dev/null
    "${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'dragonante_test'" | grep -q 1 \
        || runuser -u postgres -- createdb -p "$port" -O dragonante dragonante_test
    export DRAGONANTE_TEST_PG_URL="postgresql://dragonante:dragonante@127.0.0.1:$port/dragonante_test"
    echo "dev: PostgreSQL $version on port $port (role dragonante, database dragonante_test) for the database tests"
}

STARTED_PG=""

# Stop what prepare_test_services started (not a server that was already
# running), unless DRAGONANTE_KEEP_SERVICES=1.
stop_test_services() {
    [ -n "$STARTED_PG" ] || return 0
    if [ "${DRAGONANTE_KEEP_SERVICES:-}" = 1 ]; then
        echo "dev: PostgreSQL $STARTED_PG left running (DRAGONANTE_KEEP_SERVICES=1)"
        return 0
    fi
    pg_ctlcluster "$STARTED_PG" main stop >/dev/null 2>&1 \
        && echo "dev: stopped the PostgreSQL this run started" \
        || echo "dev: could not stop PostgreSQL $STARTED_PG (pg_ctlcluster $STARTED_PG main stop)" >&2
    STARTED_PG=""
}

prepare_test_services() {
    [ "${DRAGONANTE_NO_INSTALL:-}" = 1 ] && return 0
    install_missing
    start_postgres
}
