// Package featuregates sets and lists the feature gates of the pinned kube-scheduler: the same
// gate set its binary registers (kube's features, client-go's, zpages', logging's), at the
// binary's emulation and minimum compatibility versions.
package featuregates

import (
	"sort"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	logsapi "k8s.io/component-base/logs/api/v1"
	_ "k8s.io/kubernetes/pkg/features" // registers kube's gates (and client-go's, zpages') in init
)

func init() {
	// kube-scheduler's app package adds the logging gates the same way.
	if err := logsapi.AddFeatureGates(utilfeature.DefaultMutableFeatureGate); err != nil {
		panic(err)
	}
}

// Set applies a --feature-gates value ("A=true,B=false") as kube-scheduler does.
func Set(value string) error {
	return utilfeature.DefaultMutableFeatureGate.Set(value)
}

// Gate is one known gate at the binary's version.
type Gate struct {
	Name          string   `json:"name"`
	Default       bool     `json:"default"`
	LockToDefault bool     `json:"lockToDefault"`
	PreRelease    string   `json:"preRelease"`
	DependsOn     []string `json:"dependsOn,omitempty"`
}

// List returns every gate kube-scheduler accepts, sorted by name.
func List() []Gate {
	fg := utilfeature.DefaultMutableFeatureGate
	deps := fg.Dependencies()
	var out []Gate
	for name, spec := range fg.GetAll() {
		g := Gate{Name: string(name), Default: spec.Default, LockToDefault: spec.LockToDefault, PreRelease: string(spec.PreRelease)}
		for _, d := range deps[name] {
			g.DependsOn = append(g.DependsOn, string(d))
		}
		sort.Strings(g.DependsOn)
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
