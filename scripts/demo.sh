#!/usr/bin/env bash
# make demo: plan and apply examples/quickstart against the embedded mock hub,
# using the freshly built provider through a dev_overrides CLI configuration
# (no registry, no terraform init).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tf=$("$root/scripts/ensure-cli.sh" any)
rc="$root/bin/dev.tfrc"
cat >"$rc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/fleetform/aks" = "$root/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1
dir="$root/examples/quickstart"
version=$("$tf" version) # read whole: head would close the pipe early (SIGPIPE)
echo "==> ${version%%$'\n'*} — $dir"
echo "==> get (the quickstart calls examples/modules/regional-rollout)"
"$tf" -chdir="$dir" get >/dev/null
echo "==> plan"
"$tf" -chdir="$dir" plan -input=false -out=demo.tfplan
echo "==> apply"
"$tf" -chdir="$dir" apply -input=false demo.tfplan
rm -f "$dir/demo.tfplan"
echo "==> outputs"
"$tf" -chdir="$dir" output
