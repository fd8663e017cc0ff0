package explain

import (
	"context"
	"sync"

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
// call goes to upstream's framework unchanged; only opportunistic batching (KEP-5598) is turned
// off, because `explain` evaluates every node for every pod.
type recordingFramework struct {
	framework.Framework
	rec *attempt
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
	r.rec.mu.Lock()
	if r.rec.recording {
		// The same slice the scheduler goes on with: extenders' scores added later show up here.
		r.rec.scores = scores
	}
	r.rec.mu.Unlock()
	return scores, status
}

func (r *recordingFramework) GetNodeHint(context.Context, *v1.Pod, fwk.PodSignature, fwk.CycleState, int64) string {
	return ""
}

func (r *recordingFramework) StoreScheduleResults(context.Context, fwk.PodSignature, string, string, framework.SortedScoredNodes, int64) {
}
