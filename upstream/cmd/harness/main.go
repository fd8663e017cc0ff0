// Command harness prints upstream kube-scheduler's decisions for a scenario in the JSON of
// `kube-scheduler-ts explain --output json --tie-break name`.
//
//	harness [-feature-gates A=true,B=false] scenario.yaml
//	harness -list-feature-gates
//
// Exit status: 0 when every pending pod was attempted, 2 on a bad scenario or configuration,
// 1 when the harness itself failed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"k8s.io/klog/v2"

	"kube-scheduler-ts/upstream/internal/explain"
	"kube-scheduler-ts/upstream/internal/featuregates"
	"kube-scheduler-ts/upstream/internal/scenario"
)

func main() {
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	verbosity := flag.String("v", "0", "upstream's log verbosity (klog -v), logged to stderr")
	gates := flag.String("feature-gates", "", "kube-scheduler's --feature-gates")
	listGates := flag.Bool("list-feature-gates", false, "print every feature gate kube-scheduler knows, with its default, as JSON")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: harness [-v N] [-feature-gates A=true,B=false] scenario.yaml | harness -list-feature-gates")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *listGates {
		printJSON(featuregates.List())
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	_ = klogFlags.Set("v", *verbosity)
	_ = klogFlags.Set("logtostderr", "true")
	if err := featuregates.Set(*gates); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}

	sc, err := scenario.Load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, s := range sc.Skipped {
		fmt.Fprintf(os.Stderr, "harness: skipped %s: kind not loaded\n", s)
	}
	res, err := explain.Run(context.Background(), sc)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		var cfgErr explain.ConfigError
		if errors.As(err, &cfgErr) {
			os.Exit(2)
		}
		os.Exit(1)
	}
	printJSON(res)
}

func printJSON(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
