# Sourced by ./dev test: what the browser and database tests need.
#
# As root, install what is missing (Debian's Chromium for the browser tests,
# PostgreSQL for the database test), start a local PostgreSQL and point
# DRAGONANTE_TEST_PG_URL at a test database.  Every step is idempotent and
# quiet; without root nothing is installed and those tests say in one line
# why they are skipped.  DRAGONANTE_NO_INSTALL=1 skips all of it.

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

is_root() { [ "$(id -u)" = 0 ]; }

install_missing() {
    local need=()
    [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
    [ ${#need[@]} -eq 0 ] && return 0
    if ! is_root || ! command -v apt-get >/dev/null 2>&1; then
        echo "dev: cannot install ${need[*]} here (needs root and apt-get): those tests will be skipped" >&2
        return 0
    fi
    echo "dev: installing ${need[*]}"
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
    pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
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
    echo "dev: PostgreSQL $version on port $port for the database test"
}

prepare_test_services() {
    [ "${DRAGONANTE_NO_INSTALL:-}" = 1 ] && return 0
    install_missing
    start_postgres
}
