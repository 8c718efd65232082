#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer, starting them when
# they are installed but stopped. Fails with a clear message when they cannot be had: the suite
# never silently skips the engines it promises to test.
set -euo pipefail
say() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {
  for _ in $(seq 1 50); do port_open "$1" && return 0; sleep 0.2; done
  return 1
}

if ! port_open 5432; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    say "Starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  wait_port 5432 || { say "PostgreSQL is not reachable on 127.0.0.1:5432 and could not be started (apt-get install postgresql)"; exit 1; }
fi

if ! port_open 6379; then
  if command -v redis-server >/dev/null; then
    say "Starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  fi
  wait_port 6379 || { say "Redis is not reachable on 127.0.0.1:6379 and could not be started (apt-get install redis-server)"; exit 1; }
fi
