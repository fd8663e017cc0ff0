package explain

import (
	"context"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// attempt is what one scheduling attempt went through, as upstream's framework reported it.
type attempt struct {
	mu        sync.Mutex
	recording bool
	preFilter *fwk.Status
	filter    map[string]*fwk.Status
	// passed holds the nodes that passed Filter, for a profile without score plugins.
	passed map[string]bool
	scores []fwk.NodePluginScores
	// placementWinner is the placement the harness's order made best in the group's cycle.
	placementWinner string
}

func (a *attempt) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recording = true
	a.preFilter = nil
	a.filter = map[string]*fwk.Status{}
	a.passed = map[string]bool{}
	a.scores = nil
}

func (a *attempt) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recording = false
}

// recordingFramework is a profile's framework that also reports, to the harness, the PreFilter
// verdict, each node's Filter verdict and the weighted scores of the attempt in progress. Every
// call goes to upstream's framework unchanged. Opportunistic batching (KEP-5598) runs as upstream
// runs it; only its order among equal totals is made the harness's (by name, see batch_order.go),
// and a stored ranking is treated as fresh, as for pods created in one burst.
type recordingFramework struct {
	framework.Framework
	rec *attempt
	// group is the pod group whose cycle runs now, if any (the harness's).
	group func() *groupAttempt
	// placement is the placement the scheduler's snapshot is limited to now (nil for all nodes).
	placement func() *fwk.Placement
}

// RunPermitPlugins notes whether a group member waits at Permit (see awaitPreBindTurn).
func (r *recordingFramework) RunPermitPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) (map[string]time.Duration, *fwk.Status) {
	waits, status := r.Framework.RunPermitPlugins(ctx, state, pod, nodeName)
	if g := r.group(); g != nil {
		g.permitted(pod, status.IsWait(), state)
	}
	return waits, status
}

// RunPreBindPlugins runs a group member's PreBind in its turn (awaitPreBindTurn).
func (r *recordingFramework) RunPreBindPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	g := r.group()
	if g == nil {
		return r.Framework.RunPreBindPlugins(ctx, state, pod, nodeName)
	}
	g.awaitPreBindTurn(ctx, pod)
	defer g.preBindDone(pod)
	return r.Framework.RunPreBindPlugins(ctx, state, pod, nodeName)
}

func (r *recordingFramework) RunPreFilterPlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod) (*fwk.PreFilterResult, *fwk.Status, sets.Set[string]) {
	res, status, plugins := r.Framework.RunPreFilterPlugins(ctx, state, pod)
	r.rec.mu.Lock()
	if r.rec.recording && !status.IsSuccess() {
		r.rec.preFilter = status
	}
	r.rec.mu.Unlock()
	return res, status, plugins
}

func (r *recordingFramework) RunFilterPluginsWithNominatedPods(ctx context.Context, state fwk.CycleState, pod *v1.Pod, info fwk.NodeInfo) *fwk.Status {
	status := r.Framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, info)
	r.rec.mu.Lock()
	if r.rec.recording {
		if status.IsSuccess() {
			delete(r.rec.filter, info.Node().Name)
			r.rec.passed[info.Node().Name] = true
		} else {
			r.rec.filter[info.Node().Name] = status
			delete(r.rec.passed, info.Node().Name)
		}
	}
	r.rec.mu.Unlock()
	return status
}

func (r *recordingFramework) RunScorePlugins(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) ([]fwk.NodePluginScores, *fwk.Status) {
	scores, status := r.Framework.RunScorePlugins(ctx, state, pod, nodes)
	// The scheduler's heap then pops equal totals by name, as `--tie-break name` picks them.
	rankByName(scores, "")
	r.rec.mu.Lock()
	if r.rec.recording {
		// The same slice the scheduler goes on with: extenders' scores added later show up here.
		r.rec.scores = scores
	}
	r.rec.mu.Unlock()
	return scores, status
}

func (r *recordingFramework) GetNodeHint(ctx context.Context, pod *v1.Pod, signature fwk.PodSignature, state fwk.CycleState, cycleCount int64) string {
	orderStoredRankingByName(r.Framework)
	return r.Framework.GetNodeHint(ctx, pod, signature, state, cycleCount)
}
