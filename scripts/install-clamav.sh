#!/usr/bin/env bash
# Installs Debian's clamd (clamav-daemon) and sigtool (clamav) for the tests.
# The tests start their own clamd with a locally generated signature database,
# so the system services (clamd, freshclam) must never start: there is no
# internet to fetch signatures from, and a system clamd would hold ports/CPU.
# Idempotent: a second run only re-asserts that the services are off.
set -euo pipefail

# shellcheck source=scripts/apt.sh
source "$(dirname "$0")/apt.sh"

have_tools() {
  command -v clamd >/dev/null 2>&1 || [ -x /usr/sbin/clamd ] || return 1
  command -v sigtool >/dev/null 2>&1 || return 1
}

stop_services() {
  # Only meaningful where systemd is PID 1; containers and plain VMs skip it.
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    "${SUDO[@]}" systemctl disable --now clamav-freshclam.service clamav-daemon.service \
      clamav-daemon.socket >/dev/null 2>&1 || true
    "${SUDO[@]}" systemctl mask clamav-freshclam.service >/dev/null 2>&1 || true
  elif command -v service >/dev/null 2>&1; then
    "${SUDO[@]}" service clamav-freshclam stop >/dev/null 2>&1 || true
    "${SUDO[@]}" service clamav-daemon stop >/dev/null 2>&1 || true
  fi
  # freshclam can also be started from an if-up/ppp hook; neutralise it.
  local hook
  for hook in /etc/network/if-up.d/clamav-freshclam* /etc/ppp/ip-up.d/clamav-freshclam*; do
    if [ -f "$hook" ]; then "${SUDO[@]}" chmod a-x "$hook" || true; fi
  done
}

if have_tools; then
  stop_services
  echo "clamav already installed: $(sigtool --version 2>/dev/null || true)"
  exit 0
fi

# Block service starts during the install (invoke-rc.d and deb-systemd-invoke
# both honour policy-rc.d). Leave an existing policy (e.g. Docker's) in place.
POLICY=/usr/sbin/policy-rc.d
CREATED_POLICY=0
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$POLICY" >/dev/null
  "${SUDO[@]}" chmod 755 "$POLICY"
  CREATED_POLICY=1
fi
cleanup() {
  if [ "$CREATED_POLICY" -eq 1 ]; then "${SUDO[@]}" rm -f "$POLICY"; fi
}
trap cleanup EXIT

# Ask the package not to run freshclam as a daemon at all.
if command -v debconf-set-selections >/dev/null 2>&1; then
  echo 'clamav-freshclam clamav-freshclam/autoupdate_freshclam select manual' \
    | "${SUDO[@]}" debconf-set-selections || true
fi

apt_install clamav clamav-daemon

stop_services

have_tools || { echo "install-clamav: clamd or sigtool missing after install" >&2; exit 1; }
echo "clamav installed: $(sigtool --version 2>/dev/null || true)"
