#!/usr/bin/env bash
# Installs Debian's chromium (submission PDFs: playwright-core drives it, never a downloaded
# browser; setting render.chromium-path, default /usr/bin/chromium) and poppler-utils (pdftotext
# and pdfinfo, which the render tests read the PDFs with). Idempotent.
set -euo pipefail

# shellcheck source=scripts/apt.sh
source "$(dirname "$0")/apt.sh"

have_tools() {
  command -v chromium >/dev/null 2>&1 || return 1
  command -v pdftotext >/dev/null 2>&1 || return 1
  command -v pdfinfo >/dev/null 2>&1 || return 1
}

if have_tools; then
  echo "chromium already installed: $(chromium --version 2>/dev/null || true)"
  exit 0
fi

apt_install chromium poppler-utils

have_tools || { echo "install-chromium: chromium, pdftotext or pdfinfo missing after install" >&2; exit 1; }
echo "chromium installed: $(chromium --version 2>/dev/null || true)"
