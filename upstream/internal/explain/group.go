package explain

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
)

func genericWorkloadEnabled() bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload)
}

// groupAttempt is what each member of a pod group went through in the group's cycle: per
// placement tried (TopologyAwareWorkloadScheduling tries the group on each), each member's
// scheduling algorithm's record (the last one, for a member tried again); and how it failed.
type groupAttempt struct {
	key     string
	mu      sync.Mutex
	members map[string]*memberRecord
	// trials holds the members' records per placement path ("" for all nodes), tried in
	// placements' order. In a tree of CompositePodGroups placements nest (the composite's
	// domains, then each child's inside them, and a child without constraints gets an unnamed
	// copy of its parent's), so a name alone is ambiguous: the path is the names from the
	// outermost placement down, each after a "/".
	trials     map[string]map[string]*memberRecord
	placements []string
	// paths holds the path of each placement generated in this cycle.
	paths map[*fwk.Placement]string
	// byState holds, per member's cycle state, a copy of the trial record made with it (a later
	// trial in the same placement path overwrites the record in trials); chosen holds, per member
	// whose Permit ran, the trial whose cycle state went on to the binding cycle: the one of the
	// placement upstream chose.
	byState map[fwk.CycleState]*memberRecord
	chosen  map[string]*memberRecord
	// order is the members' keys in the order they were created; waited holds, per member whose
	// Permit ran, whether it waited; preBound holds those whose PreBind has returned (see
	// awaitPreBindTurn).
	order    []string
	waited   map[string]bool
	preBound map[string]bool
}

type memberRecord struct {
	host       string
	bestNodes  []string
	preFilter  *fwk.Status
	filter     map[string]*fwk.Status
	scores     []fwk.NodePluginScores
	failure    *fwk.Status
	nominating *fwk.NominatingInfo
}

func (g *groupAttempt) record(pod *v1.Pod) *memberRecord {
	return recordIn(g.members, pod)
}

func recordIn(records map[string]*memberRecord, pod *v1.Pod) *memberRecord {
	key := pod.Namespace + "/" + pod.Name
	r := records[key]
	if r == nil {
		r = &memberRecord{}
		records[key] = r
	}
	return r
}

// nested gives each generated placement its path below the parent's (nil for all nodes).
func (g *groupAttempt) nested(parent *fwk.Placement, placements []*fwk.Placement) {
	base := g.pathOf(parent)
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range placements {
		g.paths[p] = base + "/" + p.Name
	}
}

// pathOf is a placement's path: "" for all nodes (nil), its name for one not generated in
// this cycle.
func (g *groupAttempt) pathOf(p *fwk.Placement) string {
	if p == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if path, ok := g.paths[p]; ok {
		return path
	}
	return p.Name
}

// trial is the member's record in the placement being tried.
func (g *groupAttempt) trial(pod *v1.Pod, placement string) *memberRecord {
	records := g.trials[placement]
	if records == nil {
		records = map[string]*memberRecord{}
		g.trials[placement] = records
		g.placements = append(g.placements, placement)
	}
	return recordIn(records, pod)
}

// tried notes the PreFilter verdict of the member's algorithm, which ran just now.
func (g *groupAttempt) tried(pod *v1.Pod, rec *attempt, placement string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	g.trial(pod, placement).preFilter = rec.preFilter
}

// placed notes the node the member's algorithm chose, with its Filter verdicts and scores, in
// the trial of the placement and under the member's cycle state of this trial.
func (g *groupAttempt) placed(pod *v1.Pod, h *harness, placement string, state fwk.CycleState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.trial(pod, placement)
	r.host, r.bestNodes, r.scores = h.host, h.bestNodes, h.rec.scores
	r.filter = map[string]*fwk.Status{}
	for node, s := range h.rec.filter {
		r.filter[node] = s
	}
	trial := *r
	g.byState[state] = &trial
	h.host, h.bestNodes = "", nil
}

// awaitPreBindTurn holds a member's PreBind until the members before it in the binding order have
// finished their own or failed. Upstream runs the members' binding cycles in goroutines that race
// for the group's claims: the first write wins and the others meet a conflict. The order is the
// one our single-threaded binding cycles take: first the members that did not wait at Permit
// (they go on at once), then those that waited, each in the members' order. It is known once
// every member's Permit ran or the member failed.
func (g *groupAttempt) awaitPreBindTurn(ctx context.Context, pod *v1.Pod) {
	key := pod.Namespace + "/" + pod.Name
	_ = wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		g.mu.Lock()
		defer g.mu.Unlock()
		failed := func(k string) bool { return g.members[k] != nil && g.members[k].failure != nil }
		for _, k := range g.order {
			if _, ok := g.waited[k]; !ok && !failed(k) {
				return false, nil
			}
		}
		for _, waited := range []bool{false, true} {
			for _, k := range g.order {
				if failed(k) || g.waited[k] != waited {
					continue
				}
				if k == key {
					return true, nil
				}
				if !g.preBound[k] {
					return false, nil
				}
			}
		}
		return true, nil
	})
}

// permitted notes whether the member's Permit made it wait, and the trial its cycle state (the
// chosen placement's: Permit runs only once the tree's result is submitted) comes from.
func (g *groupAttempt) permitted(pod *v1.Pod, waited bool, state fwk.CycleState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := pod.Namespace + "/" + pod.Name
	g.waited[key] = waited
	if r := g.byState[state]; r != nil {
		g.chosen[key] = r
	}
}

// preBindDone lets the next member's PreBind go.
func (g *groupAttempt) preBindDone(pod *v1.Pod) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.preBound[pod.Namespace+"/"+pod.Name] = true
}

// memberFailed says whether the member's cycle or binding cycle failed.
func (g *groupAttempt) memberFailed(pod *v1.Pod) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.members[pod.Namespace+"/"+pod.Name]
	return r != nil && r.failure != nil
}

// failed notes the status the member failed with.
func (g *groupAttempt) failed(pod *v1.Pod, status *fwk.Status, nominating *fwk.NominatingInfo) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.record(pod)
	if r.failure == nil {
		r.failure, r.nominating = status, nominating
	}
}

// groupParents maps a scenario's PodGroups and CompositePodGroups ("namespace/name") to their
// parent composite's name, with CompositePodGroup on: a member's group is then its tree's root.
var groupParents = map[string]string{}

// setGroupParents reads the parents of the scenario's groups (none without CompositePodGroup).
func setGroupParents(objects []runtime.Object) {
	groupParents = map[string]string{}
	if !utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup) {
		return
	}
	for _, o := range objects {
		switch g := o.(type) {
		case *schedulingv1beta1.PodGroup:
			if g.Spec.ParentCompositePodGroupName != nil {
				groupParents["pg:"+namespaceOrDefault(g.Namespace)+"/"+g.Name] = *g.Spec.ParentCompositePodGroupName
			}
		case *schedulingv1alpha3.CompositePodGroup:
			if g.Spec.ParentCompositePodGroupName != nil {
				groupParents["cpg:"+namespaceOrDefault(g.Namespace)+"/"+g.Name] = *g.Spec.ParentCompositePodGroupName
			}
		}
	}
}

func namespaceOrDefault(ns string) string {
	if ns == "" {
		return metav1.NamespaceDefault
	}
	return ns
}

// groupKey is "namespace/name" of the root of a member's pod group (the group itself without
// composites), with GenericWorkload on: the queue's entity the member is scheduled in.
func groupKey(p *v1.Pod) (string, bool) {
	if p.Spec.SchedulingGroup == nil || p.Spec.SchedulingGroup.PodGroupName == nil || !genericWorkloadEnabled() {
		return "", false
	}
	ns := namespaceOf(p)
	name := *p.Spec.SchedulingGroup.PodGroupName
	parent, ok := groupParents["pg:"+ns+"/"+name]
	for depth := 0; ok && depth < 8; depth++ {
		name = parent
		parent, ok = groupParents["cpg:"+ns+"/"+name]
	}
	return ns + "/" + name, true
}

// inTree says whether the pod's group hangs under a CompositePodGroup.
func inTree(p *v1.Pod) bool {
	if p.Spec.SchedulingGroup == nil || p.Spec.SchedulingGroup.PodGroupName == nil {
		return false
	}
	_, ok := groupParents["pg:"+namespaceOf(p)+"/"+*p.Spec.SchedulingGroup.PodGroupName]
	return ok
}

func groupMembers(pending []*v1.Pod, key string) []*v1.Pod {
	var out []*v1.Pod
	for _, p := range pending {
		if k, ok := groupKey(p); ok && k == key {
			out = append(out, p)
		}
	}
	return out
}

// attemptGroup creates a pod group's pending members, lets the Scheduler pop the group once and
// run its cycle, waits for the bindings it started, and reports each member in the given order.
func (h *harness) attemptGroup(ctx context.Context, members []*v1.Pod) ([]Pod, error) {
	h.startGroup(members[0])
	defer func() { h.group = nil }()
	for _, m := range members {
		pod := m.DeepCopy()
		pod.Namespace = namespaceOf(pod)
		pod.Spec.NodeName = ""
		if err := h.cluster.Create(ctx, pod); err != nil {
			return nil, err
		}
	}
	if err := h.createLateGroups(ctx, h.group.key, members); err != nil {
		return nil, err
	}
	out, created, err := h.runGroup(ctx, members)
	if err != nil {
		return nil, err
	}
	// A group that preempted nominates its members: wait for its victims to go, and report them
	// once, on the first member (as the TypeScript side does).
	for _, p := range out {
		if p.NominatedNode != "" {
			victims, err := h.waitForPreemption(ctx, created[0])
			if err != nil {
				return nil, err
			}
			out[0].Victims = victims
			break
		}
	}
	var failed []*v1.Pod
	var reports []*Pod
	for i, p := range out {
		if p.Outcome != "Scheduled" && h.failedInBinding(created[i]) {
			failed = append(failed, created[i])
			reports = append(reports, &out[i])
		}
	}
	if err := h.retryFailedMembers(ctx, failed, reports); err != nil {
		return nil, err
	}
	// One attempt per pending pod: the members left unscheduled leave, so that their group, put
	// back in activeQ after a partial success, is not popped again before the next pending pod.
	for i, p := range out {
		if p.Outcome == "Scheduled" || (len(p.Retries) > 0 && p.Retries[0].Outcome == "Scheduled") {
			continue
		}
		if err := h.removePending(ctx, created[i]); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if len(out[i].Retries) > 0 {
			final, err := h.finalOf(ctx, created[i])
			if err != nil {
				return nil, err
			}
			out[i].Final = final
		}
	}
	return out, nil
}

// retryFailedMembers gives the members placed whose binding then failed (a shared claim another
// member wrote first) one more group cycle together, at once: left in the queue, their group
// would be popped ahead of the next pending pod. Each one's report gets that attempt as its retry.
func (h *harness) retryFailedMembers(ctx context.Context, failed []*v1.Pod, reports []*Pod) error {
	if len(failed) == 0 {
		return nil
	}
	// The failure handler clears each one's nomination (set in its binding cycle) in the
	// background; upstream's backoff lets that land before the retry, which would otherwise try
	// the nominated node alone. Then, as before any retry, the writes reach the scheduler.
	for _, f := range failed {
		err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
			p, err := h.cluster.Client.CoreV1().Pods(f.Namespace).Get(ctx, f.Name, metav1.GetOptions{})
			return err == nil && p.Status.NominatedNodeName == "", nil
		})
		if err != nil {
			return fmt.Errorf("waiting for %s/%s's nomination to be cleared: %w", f.Namespace, f.Name, err)
		}
	}
	if err := h.settle(ctx); err != nil {
		return err
	}
	h.startGroup(failed[0])
	live := map[string]*v1.Pod{}
	for _, f := range failed {
		live[f.Namespace+"/"+f.Name] = f
	}
	h.sched.SchedulingQueue.Activate(klog.FromContext(ctx), live)
	out, _, err := h.runGroup(ctx, failed)
	if err != nil {
		return fmt.Errorf("retry: %w", err)
	}
	for i := range out {
		reports[i].Retries = append(reports[i].Retries, out[i])
	}
	return nil
}

// startGroup begins a group's attempt: the harness's per-attempt state reset, the group's record.
func (h *harness) startGroup(member *v1.Pod) {
	key, _ := groupKey(member)
	h.group = &groupAttempt{key: key, members: map[string]*memberRecord{}, trials: map[string]map[string]*memberRecord{}, paths: map[*fwk.Placement]string{}, byState: map[fwk.CycleState]*memberRecord{}, chosen: map[string]*memberRecord{}, waited: map[string]bool{}, preBound: map[string]bool{}}
	h.rec.mu.Lock()
	h.rec.placementWinner = ""
	h.rec.mu.Unlock()
	h.host, h.bestNodes, h.failure, h.nominating, h.popErr = "", nil, nil, nil, nil
	h.afterSelection.Store(nil)
	h.cluster.DeletedPods()
	// A group's members report no writes: the timeline covers single pods only.
	h.cluster.Writes()
	h.preemptor = nil
}

// runGroup waits until the given members are in activeQ, lets the Scheduler pop their group once
// and run its cycle, waits for the bindings it started, and reports each member in order.
func (h *harness) runGroup(ctx context.Context, members []*v1.Pod) ([]Pod, []*v1.Pod, error) {
	created, err := h.waitForGroupActive(ctx, members)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range created {
		h.group.order = append(h.group.order, c.Namespace+"/"+c.Name)
	}
	h.sched.ScheduleOne(ctx)
	if h.popErr != nil {
		return nil, nil, h.popErr
	}
	trials, err := h.chosenTrials(ctx, created)
	if err != nil {
		return nil, nil, err
	}
	var out []Pod
	for _, c := range created {
		p, err := h.memberResult(ctx, c, trials)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, p)
	}
	return out, created, nil
}

// failedInBinding says whether the member was placed and then failed in PreBind or Bind.
func (h *harness) failedInBinding(pod *v1.Pod) bool {
	h.group.mu.Lock()
	defer h.group.mu.Unlock()
	return h.group.preBound[pod.Namespace+"/"+pod.Name] && h.group.members[pod.Namespace+"/"+pod.Name] != nil && h.group.members[pod.Namespace+"/"+pod.Name].failure != nil
}

// waitForGroupActive waits until every member is in activeQ (the group is gated until enough
// members have arrived) and returns them as the queue holds them.
func (h *harness) waitForGroupActive(ctx context.Context, members []*v1.Pod) ([]*v1.Pod, error) {
	var found []*v1.Pod
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		pods, summary := h.sched.SchedulingQueue.PendingPods()
		var active int
		if _, err := fmt.Sscanf(summary, "activeQ:%d;", &active); err != nil {
			return false, fmt.Errorf("unexpected queue summary %q", summary)
		}
		found = found[:0]
		for _, m := range members {
			var hit *v1.Pod
			for _, p := range pods[:active] {
				if p.Namespace == namespaceOf(m) && p.Name == m.Name {
					hit = p
				}
			}
			if hit == nil {
				return false, nil
			}
			found = append(found, hit)
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the pod group's members in activeQ: %w", err)
	}
	return found, nil
}

// removePending deletes a pending pod and waits until the scheduling queue no longer holds it.
func (h *harness) removePending(ctx context.Context, pod *v1.Pod) error {
	if err := h.cluster.Client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		_, held := h.sched.SchedulingQueue.GetPod(pod.Name, pod.Namespace, pod.Spec.SchedulingGroup)
		return !held, nil
	})
}

// chosenTrials is the members' records in the placement upstream went on with: the one the
// placement scores chose, else the one where a member that did not fail was bound (the only
// feasible one), else the first tried (which upstream reports when none is feasible).
func (h *harness) chosenTrials(ctx context.Context, created []*v1.Pod) (map[string]*memberRecord, error) {
	g := h.group
	g.mu.Lock()
	placements := g.placements
	g.mu.Unlock()
	if len(placements) == 0 {
		return map[string]*memberRecord{}, nil
	}
	if len(placements) == 1 {
		return g.trials[placements[0]], nil
	}
	h.rec.mu.Lock()
	winner := h.rec.placementWinner
	h.rec.mu.Unlock()
	if trials, ok := g.trials[winner]; ok && winner != "" {
		return trials, nil
	}
	for _, c := range created {
		key := c.Namespace + "/" + c.Name
		g.mu.Lock()
		failed := g.members[key] != nil && g.members[key].failure != nil
		g.mu.Unlock()
		if failed {
			continue
		}
		if err := h.waitForBinding(ctx, c); err != nil {
			return nil, err
		}
		p, err := h.sched.Profiles[c.Spec.SchedulerName].SharedInformerFactory().Core().V1().Pods().Lister().Pods(c.Namespace).Get(c.Name)
		if err != nil {
			continue
		}
		for _, name := range placements {
			if r := g.trials[name][key]; r != nil && r.host != "" && r.host == p.Spec.NodeName {
				return g.trials[name], nil
			}
		}
	}
	return g.trials[placements[0]], nil
}

func (h *harness) memberResult(ctx context.Context, pod *v1.Pod, trials map[string]*memberRecord) (Pod, error) {
	h.group.mu.Lock()
	failure := h.group.record(pod)
	r := memberRecord{}
	if t := trials[pod.Namespace+"/"+pod.Name]; t != nil {
		r = *t
	}
	r.failure, r.nominating = failure.failure, failure.nominating
	preBound := h.group.preBound[pod.Namespace+"/"+pod.Name]
	h.group.mu.Unlock()
	out := newPodResult(pod)
	if r.failure != nil && preBound {
		// Placed, then its PreBind or Bind failed: reported as a single pod's failure after its
		// node was chosen is, with no node.
		setPlaced(&out, r.host, r.bestNodes, r.filter, r.scores)
		out.Outcome, out.Node, out.Message = "Error", "", r.failure.Message()
		return out, nil
	}
	if r.failure == nil && inTree(pod) {
		// In a tree each group chose its own placement, nested in its parents' (the last one
		// scored is not every member's): the member's record is the trial whose cycle state
		// went on to Permit.
		if err := h.waitForBinding(ctx, pod); err != nil {
			return out, err
		}
		h.group.mu.Lock()
		r.host = ""
		if t := h.group.chosen[pod.Namespace+"/"+pod.Name]; t != nil {
			r.host, r.bestNodes, r.filter, r.scores, r.preFilter = t.host, t.bestNodes, t.filter, t.scores, t.preFilter
		}
		h.group.mu.Unlock()
	}
	if r.failure == nil {
		if r.host == "" {
			h.group.mu.Lock()
			seen := []string{}
			for _, name := range h.group.placements {
				if t := h.group.trials[name][pod.Namespace+"/"+pod.Name]; t != nil {
					seen = append(seen, name+"="+t.host)
				}
			}
			h.group.mu.Unlock()
			return out, fmt.Errorf("member neither placed nor failed (trials %v)", seen)
		}
		if err := h.waitForBinding(ctx, pod); err != nil {
			return out, err
		}
		h.group.mu.Lock()
		failure := h.group.record(pod).failure
		preBound := h.group.preBound[pod.Namespace+"/"+pod.Name]
		h.group.mu.Unlock()
		if failure != nil && preBound {
			setPlaced(&out, r.host, r.bestNodes, r.filter, r.scores)
			out.Outcome, out.Node, out.Message = "Error", "", failure.Message()
			return out, nil
		}
		if failure != nil {
			out.Outcome, out.Message = "Error", failure.Message()
			if failure.IsRejected() {
				out.Outcome = "Unschedulable"
			}
			return out, nil
		}
		setPlaced(&out, r.host, r.bestNodes, r.filter, r.scores)
		return out, nil
	}
	setFailed(&out, r.failure, r.preFilter, r.nominating)
	return out, nil
}
