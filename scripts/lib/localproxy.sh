# Runs the go command outside the workspace against a local module proxy that
# serves this repository's modules from the working tree, at the version they
# require of each other. `go mod tidy` ignores go.work, and that version is
# only on the public proxy once scripts/release has tagged and pushed it; this
# is how the tidy check and the release resolve it before then.
#
# Sourced after modules.sh:
#   localproxy_start      writes the proxy into a temp dir (sets LOCALPROXY_DIR)
#   localproxy_go ARGS    runs `go ARGS` with GOWORK=off through it
#   localproxy_stop       removes the temp dir
#
# Third-party modules come from the machine's module cache when it has them,
# else from the configured GOPROXY. Our modules are downloaded into a module
# cache of their own, so the working tree's content never lands in the real
# one under a version the public proxy will one day serve differently.

localproxy_start() {
  LOCALPROXY_DIR=$(mktemp -d "${TMPDIR:-/tmp}/stratos-localproxy.XXXXXX") || return
  LOCALPROXY_VERSION=$(go run ./testscripts/cmd/modproxy -out "$LOCALPROXY_DIR/proxy" "$@" "${PUBLISHED[@]}") || return
  LOCALPROXY_REAL_CACHE=$(go env GOMODCACHE) || return
  LOCALPROXY_UPSTREAM=$(go env GOPROXY) || return
  LOCALPROXY_FLAGS="$(go env GOFLAGS) -modcacherw"
}

localproxy_go() {
  GOWORK=off \
  GOMODCACHE="$LOCALPROXY_DIR/modcache" \
  GOFLAGS="$LOCALPROXY_FLAGS" \
  GOPROXY="file://$LOCALPROXY_DIR/proxy,file://$LOCALPROXY_REAL_CACHE/cache/download,$LOCALPROXY_UPSTREAM" \
  GONOSUMDB="$MODULE_PREFIX" \
    go "$@"
}

localproxy_stop() {
  [ -n "${LOCALPROXY_DIR:-}" ] && rm -rf "$LOCALPROXY_DIR"
  LOCALPROXY_DIR=
}

# localproxy_tidy_check MODULE: fails (printing the diff) when `go mod tidy`
# would change MODULE's go.mod or its go.sum's third-party lines. Checksums of
# our own modules are left out of go.sum during development (the working
# tree's would go stale with every edit); scripts/release records them.
localproxy_tidy_check() {
  local out rc=0 log="$LOCALPROXY_DIR/tidy.log"
  # Its "go: downloading" lines are noise unless something fails.
  out=$(cd "$1" && localproxy_go mod tidy -diff 2>"$log") || rc=$?
  [ "$rc" -eq 0 ] && return 0
  if [ -z "$out" ]; then
    echo "$1: go mod tidy failed:" >&2
    grep -v '^go: downloading' "$log" >&2
    return 1
  fi
  # Read to the end (no grep -q): a reader that stops at the first match
  # leaves the writer to die of SIGPIPE, which pipefail makes a failure.
  if [ -n "$(printf '%s\n' "$out" | grep -E '^[-+]([^-+]|$)' | grep -v "^.$MODULE_PREFIX/")" ]; then
    echo "$1: go.mod/go.sum are not tidy; run scripts/tidy. go mod tidy -diff says:" >&2
    printf '%s\n' "$out" >&2
    return 1
  fi
}
