#!/bin/sh
# Starts the real services the test suite needs and writes their addresses to .services.env
# (sourced before pytest). Each service has its own block; the script is idempotent and quick
# when everything already runs.
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
: > .services.env

# --- PostgreSQL for the storage contract suite (tests/store) -----------------------------------
# A private cluster under var/ on its own port, so it never touches a system cluster. On a fresh
# Debian machine (as root) the server is installed with apt-get. PostgreSQL refuses to run as root,
# so as root the cluster belongs to the "postgres" user.
PG_PORT=${RENNLEITUNG_PG_PORT:-55432}
PG_HOME="$ROOT/var/postgres"
PG_USER=rennleitung
PG_DB=rennleitung_test

pg_bindir() {
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$candidate/pg_ctl" ]; then echo "$candidate"; return 0; fi
    done
    if command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return 0; fi
    return 1
}

if ! PG_BIN=$(pg_bindir); then
    if [ "$(id -u)" -ne 0 ]; then
        echo "services.sh: PostgreSQL is missing; install it (apt-get install postgresql) as root" >&2
        exit 1
    fi
    echo "services.sh: installing PostgreSQL with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(pg_bindir)
fi

if [ "$(id -u)" -eq 0 ]; then
    as_pg() { (cd / && runuser -u postgres -- "$@"); }
else
    as_pg() { "$@"; }
fi

mkdir -p "$PG_HOME"
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$PG_HOME"
    if ! runuser -u postgres -- test -w "$PG_HOME"; then
        # The checkout lies where the postgres user cannot reach (e.g. under /root): keep the
        # cluster in postgres' own home instead, one per checkout.
        PG_HOME="/var/lib/postgresql/rennleitung-$(printf %s "$ROOT" | cksum | cut -d' ' -f1)"
        mkdir -p "$PG_HOME" && chown postgres "$PG_HOME"
    fi
fi
PG_DATA="$PG_HOME/data"
PG_LOG="$PG_HOME/server.log"
PG_SOCKET="$PG_HOME"

if [ ! -f "$PG_DATA/PG_VERSION" ]; then
    as_pg "$PG_BIN/initdb" --pgdata="$PG_DATA" --username="$PG_USER" --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 >/dev/null
fi

port_free() {
    python3 -c "import socket, sys; socket.socket().bind(('127.0.0.1', int(sys.argv[1])))" "$1" \
        2>/dev/null
}

if ! as_pg "$PG_BIN/pg_ctl" status --pgdata="$PG_DATA" >/dev/null 2>&1; then
    # Another checkout's cluster may hold the port already: take the next free one.
    while ! port_free "$PG_PORT"; do PG_PORT=$((PG_PORT + 1)); done
    as_pg "$PG_BIN/pg_ctl" start --pgdata="$PG_DATA" --log="$PG_LOG" --wait --silent \
        -o "-p $PG_PORT -k $PG_SOCKET -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null
fi

# A cluster started earlier keeps its port: read it back rather than trust the variable.
PG_PORT=$(sed -n 4p "$PG_DATA/postmaster.pid")

if ! as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'" | grep -q 1; then
    as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$PG_DB"
fi

echo "export RENNLEITUNG_TEST_PG_URL=postgresql+psycopg://$PG_USER@127.0.0.1:$PG_PORT/$PG_DB" \
    >> .services.env

# --- Dovecot IMAP for the mail tests (tests/mail) ------------------------------------------------
# A private instance under var/dovecot with its own config, on its own loopback port, plain login
# (loopback only), one test user. Mail is put into the mailbox by the tests over IMAP (APPEND).
IMAP_PORT=${RENNLEITUNG_IMAP_TEST_PORT:-55143}
DC_HOME="$ROOT/var/dovecot"
# librsvg2-bin brings rsvg-convert and the libraries it uses (librsvg2-2, libcairo2): the gateway
# loads those to turn the board SVG into the PNG that question mails carry (mail/svg_png.py), and
# runs rsvg-convert where it cannot.
if ! command -v dovecot >/dev/null 2>&1 || [ ! -x /usr/lib/dovecot/imap ] \
        || ! command -v rsvg-convert >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "services.sh: Dovecot or rsvg-convert is missing; install them" \
            "(apt-get install dovecot-imapd librsvg2-bin) as root" >&2
        exit 1
    fi
    echo "services.sh: installing Dovecot and rsvg-convert with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd librsvg2-bin >/dev/null
fi
mkdir -p "$DC_HOME/run" "$DC_HOME/state" "$DC_HOME/mail"
if [ "$(id -u)" -eq 0 ]; then
    DC_USER=dovecot
    chown -R "$DC_USER" "$DC_HOME/mail"
else
    DC_USER=$(id -un)
fi
DC_UID=$(id -u "$DC_USER")
DC_GID=$(id -g "$DC_USER")
if [ -f "$DC_HOME/run/master.pid" ] && kill -0 "$(cat "$DC_HOME/run/master.pid")" 2>/dev/null; then
    IMAP_PORT=$(cat "$DC_HOME/port")
else
    while ! port_free "$IMAP_PORT"; do IMAP_PORT=$((IMAP_PORT + 1)); done
    echo "$IMAP_PORT" > "$DC_HOME/port"
    printf '%s\n' "rennleitung:{PLAIN}rennleitung" > "$DC_HOME/users"
    cat > "$DC_HOME/dovecot.conf" <<CONF
base_dir = $DC_HOME/run
state_dir = $DC_HOME/state
log_path = $DC_HOME/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = $DC_UID
default_internal_user = $DC_USER
default_login_user = $DC_USER
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $DC_HOME/users
}
userdb {
  driver = static
  args = uid=$DC_UID gid=$DC_GID home=$DC_HOME/mail/%u
}
mail_location = maildir:~/Maildir
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
CONF
    dovecot -c "$DC_HOME/dovecot.conf"
fi
echo "export RENNLEITUNG_TEST_IMAP=127.0.0.1:$IMAP_PORT:rennleitung:rennleitung" >> .services.env

# --- Chromium for the browser tests (tests/web) -------------------------------------------------
# Debian's own build, driven by Playwright through executable_path; never `playwright install`.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "services.sh: chromium is missing; install it (apt-get install chromium) as root" >&2
        exit 1
    fi
    echo "services.sh: installing chromium with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
