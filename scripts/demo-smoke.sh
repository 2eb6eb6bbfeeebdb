#!/usr/bin/env bash
# make demo-smoke: `make demo` twice from a fresh clone of this repository's
# HEAD, on the real clock, with the CLI `make demo` picks (the Terraform on
# PATH when there is one): the first run applies, the second plans no
# changes (designs/previews.md §8).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/clone"
# As on a fresh machine: the CLIs make test built in this checkout's bin/
# are not on PATH (make puts bin/ first).
PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$root/bin" | paste -sd: -)
export PATH
# A CLI built for the tests is reused rather than built again; make demo
# still prefers the Terraform on PATH.
mkdir -p "$work/clone/bin"
if [[ -x "$root/bin/terraform" ]] && ! command -v terraform >/dev/null 2>&1; then
  cp "$root/bin/terraform" "$work/clone/bin/"
fi
plain() { sed 's/\x1b\[[0-9;]*m//g'; } # the demo's CLI output is in colour
echo "==> make demo, first run (fresh clone of $(git -C "$root" rev-parse --short HEAD))"
if ! first=$(make -s -C "$work/clone" demo 2>&1 | plain; exit "${PIPESTATUS[0]}"); then
  printf '%s\n' "$first"
  echo "demo-smoke: the first make demo failed" >&2
  exit 1
fi
grep -E '^==> |^Apply complete!' <<<"$first"
echo "==> make demo, second run"
if ! second=$(make -s -C "$work/clone" demo 2>&1 | plain; exit "${PIPESTATUS[0]}"); then
  printf '%s\n' "$second"
  echo "demo-smoke: the second make demo failed" >&2
  exit 1
fi
grep -E '^==> |^No changes\.|^Apply complete!' <<<"$second"
if ! grep -q '^No changes\.' <<<"$second"; then
  printf '%s\n' "$second"
  echo "demo-smoke: the second make demo planned changes" >&2
  exit 1
fi
echo "demo-smoke: the first run applied, the second planned no changes"
