#!/usr/bin/env bash
# A throwaway PostgreSQL server for Quarry's tests.
#
#   Scripts/postgres-test-server.sh run -- swift test --filter QuarryPostgresTests
#       starts a fresh cluster, runs the command with QUARRY_POSTGRES_URL
#       exported, then ALWAYS stops the server and deletes the cluster (trap),
#       and exits with the command's exit code.
#   eval "$(Scripts/postgres-test-server.sh start)"
#       starts a cluster that outlives the script and prints the exports
#       (QUARRY_POSTGRES_URL, QUARRY_POSTGRES_TEST_DIR) for a shell to eval.
#   Scripts/postgres-test-server.sh stop [dir]
#       stops the cluster that `start` made (dir defaults to
#       $QUARRY_POSTGRES_TEST_DIR) and deletes it.
#
# Why this shape (see ../shared/design/SERVICES.md): tests need a real server,
# CI runs as root and initdb refuses root, so server programs run as the
# `postgres` system user then; the cluster trusts local connections
# (-A trust), listens on loopback only, on a port that was free when we
# looked, plus a Unix socket inside the cluster's own directory so two runs
# never collide. Debian keeps the server programs in
# /usr/lib/postgresql/<version>/bin (not on PATH); the newest installed
# version is used, and `postgresql` is installed with apt-get when none is.
set -euo pipefail

log() { printf 'postgres-test-server: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

find_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then printf '%s\n' "$dir"; return 0; fi
    return 1
}

ensure_server_installed() {
    if find_bindir >/dev/null; then return 0; fi
    [ "$(id -u)" = 0 ] || die "no /usr/lib/postgresql/*/bin/initdb and not root: install Debian's 'postgresql' package"
    log "installing postgresql with apt-get"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    find_bindir >/dev/null || die "apt-get installed postgresql but no initdb was found under /usr/lib/postgresql"
}

# Runs a server program: as the postgres user when we are root (initdb and
# postgres refuse to run as root), directly otherwise.
as_server_user() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A loopback port nobody listens on right now: ask the kernel for one
# (bind to port 0), falling back to a scan when python3 is missing.
free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
        return
    fi
    local port
    for port in $(seq 54320 54999); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
    done
    die "no free port in 54320-54999"
}

# start_cluster DIR: initdb + pg_ctl start; sets PORT and URL.
start_cluster() {
    local dir=$1 bindir attempt
    bindir=$(find_bindir)
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    chmod 700 "$dir"
    as_server_user "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || as_server_user "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    # Another process may take the port between our look and the server's
    # bind; try a few ports before giving up.
    for attempt in 1 2 3 4 5; do
        PORT=$(free_port)
        if as_server_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $PORT -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null; then
            URL="postgres://postgres@127.0.0.1:$PORT/postgres"
            log "server (PostgreSQL $(basename "$(dirname "$bindir")")) on 127.0.0.1:$PORT and socket dir $dir"
            return 0
        fi
        log "start on port $PORT failed (attempt $attempt); see below"
        tail -n 5 "$dir/server.log" >&2 || true
    done
    die "could not start the server"
}

stop_cluster() {
    local dir=$1 bindir
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    if bindir=$(find_bindir) && [ -f "$dir/data/postmaster.pid" ]; then
        as_server_user "$bindir/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    rm -rf -- "$dir"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
    run)
        [ "${1:-}" = "--" ] && shift
        [ $# -gt 0 ] || die "usage: $0 run -- command [args...]"
        ensure_server_installed
        DIR=$(mktemp -d "${TMPDIR:-/tmp}/quarry-pg.XXXXXX")
        trap 'stop_cluster "$DIR"' EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        start_cluster "$DIR"
        export QUARRY_POSTGRES_URL="$URL"
        status=0
        "$@" || status=$?
        exit "$status"
        ;;
    start)
        ensure_server_installed
        DIR=$(mktemp -d "${TMPDIR:-/tmp}/quarry-pg.XXXXXX")
        trap 'stop_cluster "$DIR"' ERR
        start_cluster "$DIR"
        trap - ERR
        printf 'export QUARRY_POSTGRES_URL=%q\n' "$URL"
        printf 'export QUARRY_POSTGRES_TEST_DIR=%q\n' "$DIR"
        log "stop it with: $0 stop $DIR"
        ;;
    stop)
        dir=${1:-${QUARRY_POSTGRES_TEST_DIR:-}}
        [ -n "$dir" ] || die "usage: $0 stop DIR (or set QUARRY_POSTGRES_TEST_DIR)"
        case "$dir" in
            "${TMPDIR:-/tmp}"/quarry-pg.*) ;;
            *) die "refusing to delete $dir: not a directory this script made" ;;
        esac
        stop_cluster "$dir"
        log "stopped and removed $dir"
        ;;
    *)
        die "usage: $0 run -- command... | start | stop [dir]"
        ;;
esac
