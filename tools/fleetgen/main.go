// Command fleetgen writes a synthetic fleet inventory for the mock hub.
//
//	go run ./tools/fleetgen -clusters 5000 -seed 7 > fleet.json
//
// The mock hub reads a file named *.json as JSON (fleet_file).
package main

import (
	"flag"
	"os"

	"github.com/fleetform/terraform-provider-aks/internal/fleetgen"
)

func main() {
	var o fleetgen.Options
	flag.IntVar(&o.Clusters, "clusters", 1000, "number of member clusters")
	flag.IntVar(&o.Regions, "regions", 6, "number of regions (at most 10)")
	seed := flag.Uint64("seed", 1, "random seed: the same seed gives the same fleet")
	flag.IntVar(&o.StaleEvery, "stale-every", 50, "make every n-th cluster's heartbeat stale (0: none)")
	flag.IntVar(&o.TaintEvery, "taint-every", 40, "taint every n-th cluster (0: none)")
	flag.IntVar(&o.NAPNodes, "nap-nodes", 0, "NAP nodes per cluster")
	flag.Parse()
	o.Seed = *seed
	if _, err := os.Stdout.Write(fleetgen.Generate(o)); err != nil {
		os.Exit(1)
	}
}
