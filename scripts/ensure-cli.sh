#!/usr/bin/env bash
# Ensures a Terraform-compatible CLI and prints its path.
#
#   scripts/ensure-cli.sh terraform   Terraform 1.5.7 in bin/ (tests pin this version)
#   scripts/ensure-cli.sh tofu        OpenTofu 1.10.7 in bin/
#   scripts/ensure-cli.sh any         terraform from PATH when it is >= 1.5, else bin/terraform
#   scripts/ensure-cli.sh newest      terraform from PATH (outside bin/) when it is newer than 1.5.7, else nothing
#
# Nothing can be downloaded from HashiCorp here, so both CLIs are built from
# the Go module proxy (2-3 minutes each) and cached in the ignored bin/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/bin"
mkdir -p "$bin"

terraform_version=1.5.7
tofu_version=1.10.7

log() { printf '%s\n' "$*" >&2; }

# The whole output is read before its first line is taken: a pipe into head
# that closes early kills the CLI with SIGPIPE, and pipefail turns that into
# this script's failure (exit 141) whenever the CLI writes after head exits.
version_of() {
  local out
  out=$("$1" version 2>/dev/null) || return 0
  sed -E -n '1s/^[A-Za-z]+ v?([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' <<<"$out"
}

ensure_terraform() {
  if [[ -x "$bin/terraform" && "$(version_of "$bin/terraform")" == "$terraform_version" ]]; then
    echo "$bin/terraform"; return
  fi
  log "==> building Terraform $terraform_version from the Go module proxy into bin/ (once; 2-3 minutes)"
  (cd "$bin" && GOBIN="$bin" GOFLAGS=-buildvcs=false go install "github.com/hashicorp/terraform@v$terraform_version") >&2
  echo "$bin/terraform"
}

ensure_tofu() {
  if [[ -x "$bin/tofu" && "$(version_of "$bin/tofu")" == "$tofu_version" ]]; then
    echo "$bin/tofu"; return
  fi
  log "==> building OpenTofu $tofu_version from the Go module proxy into bin/ (once; 2-3 minutes)"
  local dir
  dir=$(cd "$bin" && GOFLAGS= go mod download -json "github.com/opentofu/opentofu@v$tofu_version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -n "$dir" ]] || { log "could not download OpenTofu $tofu_version"; exit 1; }
  (cd "$dir" && GOFLAGS=-buildvcs=false go build -o "$bin/tofu" ./cmd/tofu) >&2
  echo "$bin/tofu"
}

case "${1:-any}" in
  terraform) ensure_terraform ;;
  tofu) ensure_tofu ;;
  any)
    if command -v terraform >/dev/null 2>&1; then
      v=$(version_of "$(command -v terraform)")
      if [[ -n "$v" ]] && printf '%s\n1.5.0\n' "$v" | sort -V -C -r 2>/dev/null; then
        command -v terraform; exit 0
      fi
    fi
    ensure_terraform ;;
  newest)
    # The newest Terraform a user would run, when the machine has one
    # (outside bin/, where make builds 1.5.7): printed only if newer.
    while IFS= read -r t; do
      [[ "$(dirname "$t")" == "$bin" ]] && continue
      v=$(version_of "$t")
      if [[ -n "$v" && "$v" != "$terraform_version" ]] && printf '%s\n%s\n' "$v" "$terraform_version" | sort -V -C -r 2>/dev/null; then
        echo "$t"; exit 0
      fi
    done < <(type -ap terraform)
    ;;
  *) log "usage: $0 terraform|tofu|any|newest"; exit 2 ;;
esac
