# Sourced by the install scripts: root or passwordless sudo, and one apt-get install that waits for
# the dpkg lock and refreshes empty package lists (a fresh image) once before giving up.
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
else
  SUDO=(sudo -n)
fi

apt_install() {
  local run=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  "${run[@]}" install -y --no-install-recommends "$@" >/dev/null && return 0
  "${run[@]}" update >/dev/null
  "${run[@]}" install -y --no-install-recommends "$@" >/dev/null
}
