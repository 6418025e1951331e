#!/usr/bin/env bash
# Builds Helm (pinned) from its Go module into .tools/helm/: the Go module proxy serves the source
# and its dependencies, `go install` compiles it with the machine's Go, nothing else is downloaded.
# The version stamps are those of Helm's own Makefile, so `helm version` and the Kubernetes version
# `helm template` and `helm lint` assume are the release's. Idempotent: a present binary of this
# version is kept. Prints the path of the `helm` binary on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=v3.22.0
# The Kubernetes release Helm v3.22.0 is built against (its go.mod's k8s.io/client-go v0.37 is
# Kubernetes 1.37); unstamped, Helm would assume Kubernetes 1.20.
K8S_MAJOR=1
K8S_MINOR=37
DEST=".tools/helm/$VERSION"
BIN="$DEST/bin/helm"

if [ -x "$BIN" ] && "$BIN" version --template '{{.Version}}' 2>/dev/null | grep -qx "$VERSION"; then
  echo "$(cd "$DEST/bin" && pwd)/helm"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-helm: the go command is missing; Helm is built from the Go module proxy (install Go 1.24 or newer)" >&2
  exit 1
fi

pkg=helm.sh/helm/v3
ldflags="-s -w"
ldflags+=" -X $pkg/internal/version.version=$VERSION"
ldflags+=" -X $pkg/internal/version.metadata="
ldflags+=" -X $pkg/internal/version.gitTreeState=clean"
ldflags+=" -X $pkg/pkg/lint/rules.k8sVersionMajor=$K8S_MAJOR"
ldflags+=" -X $pkg/pkg/lint/rules.k8sVersionMinor=$K8S_MINOR"
ldflags+=" -X $pkg/pkg/chartutil.k8sVersionMajor=$K8S_MAJOR"
ldflags+=" -X $pkg/pkg/chartutil.k8sVersionMinor=$K8S_MINOR"

mkdir -p "$DEST/bin"
log="$DEST/build.log"
echo "install-helm: building helm $VERSION from the Go module proxy (minutes the first time; log in $log)" >&2
# Outside any module: `go install pkg@version` resolves Helm's own go.mod; CGO off gives a static binary.
if ! (
  cd "$DEST"
  GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod GOBIN="$PWD/bin" \
    go install -trimpath -ldflags "$ldflags" "$pkg/cmd/helm@$VERSION"
) >"$log" 2>&1; then
  echo "install-helm: go install $pkg/cmd/helm@$VERSION failed:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
"$BIN" version --template '{{.Version}}' | grep -qx "$VERSION"
echo "$(cd "$DEST/bin" && pwd)/helm"
