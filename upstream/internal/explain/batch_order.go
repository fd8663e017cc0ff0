package explain

import (
	"reflect"
	"sort"
	"time"
	"unsafe"

	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Opportunistic batching keeps a heap of the previous cycle's scored nodes and pops equal totals
// by their Randomizer, which upstream leaves at 0 without extenders (so the heap's shape decides).
// The harness breaks ties by name instead, as `explain --tie-break name` does: the scores get a
// Randomizer falling with the node's name, and before each hint the stored heap's are set
// relative to the node batching rescores next (which re-enters with Randomizer 0), so every pop
// takes the first name among the best totals.

// rankByName gives each entry a Randomizer that falls as its name rises, 0 for `zero`'s name
// (which need not be among them).
func rankByName(scores []fwk.NodePluginScores, zero string) {
	names := make([]string, 0, len(scores)+1)
	for _, s := range scores {
		names = append(names, s.Name)
	}
	names = append(names, zero)
	sort.Strings(names)
	rank := make(map[string]int, len(names))
	for i, n := range names {
		if _, seen := rank[n]; !seen {
			rank[n] = i
		}
	}
	for i := range scores {
		scores[i].Randomizer = rank[zero] - rank[scores[i].Name]
	}
}

// orderStoredRankingByName rewrites the stored ranking of the profile's batch (runtime's
// frameworkImpl.batch, unexported: reached by reflection) so that it pops by name among equal
// totals, and marks it created now: the harness's own waits between pods (binding, informers)
// are not the gaps of a real burst of pods, which our side has none of on its simulated clock.
func orderStoredRankingByName(f framework.Framework) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	batch := v.Elem().FieldByName("batch")
	if !batch.IsValid() || batch.IsNil() {
		return
	}
	b := batch.Elem()
	state := b.FieldByName("state")
	if state.IsNil() {
		return
	}
	st := state.Elem()
	sorted := writable(st.FieldByName("sortedNodes"))
	if sorted.IsNil() {
		return
	}
	list := sorted.Interface().(framework.SortedScoredNodes).UnorderedList()
	rankByName(list, b.FieldByName("lastCycle").FieldByName("chosenNode").String())
	sorted.Set(reflect.ValueOf(framework.NewSortedScoredNodes(list)))
	writable(st.FieldByName("creationTime")).Set(reflect.ValueOf(time.Now()))
}

func writable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
