#!/usr/bin/env bash
# Installs Debian's chromium (submission PDFs: playwright-core drives it, never a downloaded
# browser; setting render.chromium-path, default /usr/bin/chromium) and poppler-utils (pdftotext
# and pdfinfo, which the render tests read the PDFs with). Idempotent.
set -euo pipefail

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
else
  SUDO=(sudo -n)
fi

have_tools() {
  command -v chromium >/dev/null 2>&1 || return 1
  command -v pdftotext >/dev/null 2>&1 || return 1
  command -v pdfinfo >/dev/null 2>&1 || return 1
}

if have_tools; then
  echo "chromium already installed: $(chromium --version 2>/dev/null || true)"
  exit 0
fi

apt_install() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
    install -y --no-install-recommends chromium poppler-utils >/dev/null
}
if ! apt_install; then
  # A fresh image may have empty package lists.
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 update >/dev/null
  apt_install
fi

have_tools || { echo "install-chromium: chromium, pdftotext or pdfinfo missing after install" >&2; exit 1; }
echo "chromium installed: $(chromium --version 2>/dev/null || true)"
