package explain

import (
	"context"
	"reflect"
	"sort"

	fwk "k8s.io/kube-scheduler/framework"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
)

// Topology-aware scheduling (TopologyAwareWorkloadScheduling) tries a pod group's placements in
// Go map order and picks among equally scored feasible ones at random. The harness makes both
// orders by name, as `explain --tie-break name` does on our side: the placements are tried in
// name order (so "first placement status" names the first domain by name), and among equal
// totals the first name wins.

// RunPlacementGeneratePlugins returns upstream's placements sorted by name.
// Each placement is also given its path (see groupAttempt.paths): the placement the snapshot is
// limited to now is the parent of the ones generated here.
func (r *recordingFramework) RunPlacementGeneratePlugins(ctx context.Context, state fwk.PodGroupCycleState, podGroup fwk.PodGroupInfo, nodes []fwk.NodeInfo) ([]*fwk.Placement, *fwk.Status) {
	placements, status := r.Framework.RunPlacementGeneratePlugins(ctx, state, podGroup, nodes)
	sort.SliceStable(placements, func(i, j int) bool { return placements[i].Name < placements[j].Name })
	if g := r.group(); g != nil {
		g.nested(r.placement(), placements)
	}
	return placements, status
}

// RunPlacementScorePlugins spreads upstream's totals apart and ranks equal ones by name: a total
// t becomes t*(n+1) plus a bonus below n+1 that falls as the name rises, so a strictly higher
// total still wins and findBestPlacement's random Randomizer never decides.
func (r *recordingFramework) RunPlacementScorePlugins(ctx context.Context, state fwk.PodGroupCycleState, podGroupInfo fwk.PodGroupInfo, placements []*fwk.PodGroupAssignments, placementStates []fwk.PlacementCycleState) ([]fwk.PlacementPluginScores, *fwk.Status) {
	scores, status := r.Framework.RunPlacementScorePlugins(ctx, state, podGroupInfo, placements, placementStates)
	if !status.IsSuccess() {
		return scores, status
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]].Placement.Name < scores[order[b]].Placement.Name })
	n := int64(len(scores))
	best := 0
	for rank, i := range order {
		scores[i].TotalScore = scores[i].TotalScore*(n+1) + (n - int64(rank))
		if scores[i].TotalScore > scores[best].TotalScore {
			best = i
		}
	}
	winner := scores[best].Placement.Name
	if g := r.group(); g != nil {
		winner = g.pathOf(scores[best].Placement)
	}
	r.rec.mu.Lock()
	r.rec.placementWinner = winner
	r.rec.mu.Unlock()
	return scores, status
}

// currentPlacement is the placement the scheduler's snapshot is limited to now (nil for all
// nodes): the Scheduler's nodeInfoSnapshot is unexported, reached by reflection.
func (h *harness) currentPlacement() *fwk.Placement {
	snapshot := writable(reflect.ValueOf(h.sched).Elem().FieldByName("nodeInfoSnapshot")).Interface().(*internalcache.Snapshot)
	return snapshot.GetPlacement()
}

// placementPath is the path of the placement the snapshot is limited to now ("" for all nodes).
func (h *harness) placementPath() string {
	return h.group.pathOf(h.currentPlacement())
}
