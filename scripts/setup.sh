#!/usr/bin/env bash
# Set up everything the project needs on a fresh machine: a virtual environment in
# .venv with the package and its extras, pinned by requirements/constraints.txt, plus
# the system packages the tests use. Safe to run again: it skips what is done.
set -euo pipefail
cd "$(dirname "$0")/.."

EXTRAS="${PITCH_EXTRAS:-dev,tui,ray,rl,server,web-test,fast}"
PY="${PYTHON:-python3}"

# System packages (Debian), only when a test needs them and they are missing.
need_apt=()
for pkg in $(cat requirements/apt.txt 2>/dev/null | grep -v '^#' || true); do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing system packages: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup: please install these Debian packages: ${need_apt[*]}" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
stamp=".venv/.pitch-setup-$(cat pyproject.toml requirements/constraints.txt | sha1sum | cut -c1-12)-${EXTRAS//,/_}"
if [ ! -f "$stamp" ]; then
  echo "setup: installing pitch[$EXTRAS] into .venv"
  .venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
  .venv/bin/python -m pip install -q -c requirements/constraints.txt -e ".[$EXTRAS]" 2>&1 \
    | grep -v '^WARNING: Location' || true
  .venv/bin/python -c "import pitch" 
  rm -f .venv/.pitch-setup-*
  touch "$stamp"
fi
# Compile the search kernels now (cached on disk; ~1 s when nothing changed), so that
# the first bot move of a game does not wait for numba.
.venv/bin/python -m pitch.fastcore
