#!/usr/bin/env bash
# make bench-plan: 200 PickN placements over a 5,000-cluster fleet, planned
# and applied by terraform-provider-aks and, side by side on the same CLI, 200
# resources of a minimal terraform-plugin-framework provider (tools/benchmin,
# the floor every framework provider sits on), and 200 of a provider that does
# no work but carries state shaped as a placement's (benchmin_shaped: the
# framework's floor for that shape). Prints medians and ratios.
#
#   scripts/bench-plan.sh                    defaults: 200 placements, 5000 clusters, 3 runs
#   PLACEMENTS=50 CLUSTERS=1000 RUNS=5 scripts/bench-plan.sh
#
# Then: plan of one aks_fleet_update_run over RUN_CLUSTERS members (default
# 1000) beside plan of one terraform_data.
#
# Peak RSS is the provider process's (VmHWM sampled from /proc), not the CLI's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
placements=${PLACEMENTS:-200}
clusters=${CLUSTERS:-5000}
runs=${RUNS:-3}
tf=$("$root/scripts/ensure-cli.sh" terraform)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "==> building the providers" >&2
(cd "$root" && go build -o "$work/bin/terraform-provider-aks" . && go build -o "$work/bin/terraform-provider-benchmin" ./tools/benchmin)
cat >"$work/dev.tfrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/fleetform/aks"    = "$work/bin"
    "registry.terraform.io/bench/benchmin" = "$work/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/dev.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

echo "==> generating a $clusters-cluster fleet" >&2
(cd "$root" && go run ./tools/fleetgen -clusters "$clusters" >"$work/fleet.yaml")

mkdir -p "$work/aks" "$work/min" "$work/shape"
# The placements' policy, the same in the aks and the placement-shaped configurations.
locals='locals {
  envs  = ["prod", "staging", "dev"]
  tiers = ["gold", "silver", "bronze"]
}'
policy='  policy {
    placement_type     = "PickN"
    number_of_clusters = 3 + count.index % 5
    affinity {
      required {
        label_selector { match_labels = { env = local.envs[count.index % 3] } }
      }
      preferred {
        weight = 40
        preference {
          label_selector { match_labels = { tier = local.tiers[count.index % 3] } }
        }
      }
      preferred {
        weight = 60
        preference {
          property_sorter {
            name       = "kubernetes.azure.com/per-cpu-core-cost"
            sort_order = "Ascending"
          }
        }
      }
    }
    tolerations {
      key      = "dedicated"
      operator = "Exists"
    }
  }'
cat >"$work/aks/main.tf" <<EOF
terraform {
  required_providers {
    aks = { source = "fleetform/aks" }
  }
}
provider "aks" {
  mock {
    fleet_file = "$work/fleet.yaml"
    state_path = "$work/aks/state.db"
    clock      = "fixed"
    clock_time = "2026-11-21T12:00:00Z"
  }
}
$locals
resource "aks_fleet_placement" "app" {
  count              = $placements
  name               = "app-\${count.index}"
  resource_selectors {
    version = "v1"
    kind    = "Namespace"
    name    = "app-\${count.index}"
  }
$policy
}
EOF
cat >"$work/min/main.tf" <<EOF
terraform {
  required_providers {
    benchmin = { source = "bench/benchmin" }
  }
}
resource "benchmin_item" "app" {
  count = $placements
  name  = "app-\${count.index}"
}
EOF
cat >"$work/shape/main.tf" <<EOF
terraform {
  required_providers {
    benchmin = { source = "bench/benchmin" }
  }
}
$locals
resource "benchmin_shaped" "app" {
  count = $placements
  name  = "app-\${count.index}"
$policy
}
EOF

# peak_rss_mb BINARY_NAME CMD...: runs CMD, prints "seconds peak_mb" of it
# (peak: the largest VmHWM of any process running BINARY_NAME meanwhile).
measure() {
  local name=$1; shift
  local out="$work/rss.$$" start end
  : >"$out"
  (
    while :; do
      for p in $(pgrep -f "$name" || true); do
        awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || true
      done >>"$out"
      sleep 0.05
    done
  ) &
  local sampler=$!
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; kill "$sampler"; return 1; }
  end=$(date +%s.%N)
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
  local kb
  kb=$(sort -n "$out" | tail -1)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}') $(( ${kb:-0} / 1024 ))"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

declare -A secs rss
for i in $(seq "$runs"); do
  echo "==> run $i of $runs" >&2
  for side in aks min shape; do
    bin=terraform-provider-benchmin; [[ $side == aks ]] && bin=terraform-provider-aks
    dir="$work/$side"
    rm -rf "$dir/terraform.tfstate" "$dir/terraform.tfstate.backup" "$dir/state.db"
    read -r s m < <(measure "$bin" "$tf" -chdir="$dir" plan -refresh=false -input=false -lock=false)
    secs[$side.plan]+="$s "; rss[$side.plan]+="$m "
    read -r s m < <(measure "$bin" "$tf" -chdir="$dir" apply -auto-approve -input=false -lock=false)
    secs[$side.apply]+="$s "; rss[$side.apply]+="$m "
    read -r s m < <(measure "$bin" "$tf" -chdir="$dir" plan -input=false -lock=false -detailed-exitcode)
    secs[$side.replan]+="$s "; rss[$side.replan]+="$m "
    if [[ $side == aks ]]; then
      size=$(du -k "$dir/state.db" | cut -f1)
    fi
    read -r s m < <(measure "$bin" "$tf" -chdir="$dir" destroy -auto-approve -input=false -lock=false)
    secs[$side.destroy]+="$s "; rss[$side.destroy]+="$m "
    if [[ $side == aks ]]; then
      after=$(du -k "$dir/state.db" | cut -f1)
    fi
  done
done

# Plan output of a create, per placement (what a reviewer reads).
rm -rf "$work/aks/terraform.tfstate" "$work/aks/state.db"
planlines=$("$tf" -chdir="$work/aks" plan -refresh=false -input=false -lock=false -no-color 2>/dev/null | wc -l)

printf '\n%d placements over %d clusters, %s, medians of %d runs\n\n' "$placements" "$clusters" "$(version=$("$tf" version); echo "${version%%$'\n'*}")" "$runs"
printf '| step | aks (s) | minimal (s) | ratio | placement-shaped no-op (s) | its ratio | aks provider peak RSS (MB) |\n|---|---|---|---|---|---|---|\n'
for step in plan apply replan destroy; do
  a=$(tr ' ' '\n' <<<"${secs[aks.$step]}" | grep . | median)
  b=$(tr ' ' '\n' <<<"${secs[min.$step]}" | grep . | median)
  c=$(tr ' ' '\n' <<<"${secs[shape.$step]}" | grep . | median)
  r=$(tr ' ' '\n' <<<"${rss[aks.$step]}" | grep . | sort -n | tail -1)
  label=$step; [[ $step == plan ]] && label="plan -refresh=false (create)"; [[ $step == replan ]] && label="plan after apply (refresh)"
  printf '| %s | %.2f | %.2f | %.1f× | %.2f | %.1f× | %s |\n' "$label" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')" \
    "$c" "$(awk -v c="$c" -v b="$b" 'BEGIN {print c / b}')" "$r"
done
printf '\nmock database: %s KB after apply, %s KB after destroy\n' "$size" "$after"
printf 'plan output (create): %d lines, %.0f per placement\n' "$planlines" "$(awk -v a="$planlines" -v b="$placements" 'BEGIN {print a / b}')"

# An update run's plan (the rollout preview of every member) beside one
# terraform_data on the same CLI (RUN_CLUSTERS members, default 1000).
run_clusters=${RUN_CLUSTERS:-1000}
mkdir -p "$work/run" "$work/tfdata"
(cd "$root" && go run ./tools/fleetgen -clusters "$run_clusters" >"$work/run-fleet.yaml")
cat >"$work/run/main.tf" <<EOF
terraform {
  required_providers {
    aks = { source = "fleetform/aks" }
  }
}
provider "aks" {
  mock {
    fleet_file = "$work/run-fleet.yaml"
    state_path = "$work/run/state.db"
    clock      = "fixed"
    clock_time = "2026-11-21T12:00:00Z"
  }
}
resource "aks_fleet_update_run" "rollout" {
  name    = "rollout"
  upgrade { type = "NodeImageOnly" }
  dynamic "stages" {
    for_each = ["canary", "wave-1", "wave-2", "wave-3"]
    content {
      name                        = stages.value
      after_stage_wait_in_seconds = 3600
      groups {
        name            = stages.value
        max_concurrency = "10"
      }
    }
  }
}
EOF
echo 'resource "terraform_data" "one" { input = "x" }' >"$work/tfdata/main.tf"
run_s=() data_s=()
for i in $(seq "$runs"); do
  read -r s _ < <(measure terraform-provider-aks "$tf" -chdir="$work/run" plan -refresh=false -input=false -lock=false)
  run_s+=("$s")
  read -r s _ < <(measure "$tf" "$tf" -chdir="$work/tfdata" plan -refresh=false -input=false -lock=false)
  data_s+=("$s")
done
a=$(printf '%s\n' "${run_s[@]}" | median)
b=$(printf '%s\n' "${data_s[@]}" | median)
printf '\nplan of one aks_fleet_update_run over %d members: %.2f s; one terraform_data: %.2f s (%.1f×)\n' \
  "$run_clusters" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')"
