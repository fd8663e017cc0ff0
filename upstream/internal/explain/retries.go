package explain

import (
	"context"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// maxRetryRounds bounds the retries: a round in which no retry binds a pod or deletes a victim
// ends them earlier.
const maxRetryRounds = 3

// retryRounds gives the pending pods their later attempts once each had its first, in rounds,
// and then reports where each ended up (Final). A round tries, in order of priority (highest
// first, then the scenario's order), every single pending pod that is still unbound, not in a
// binding cycle (waiting at Permit or in PreBind) and not held at PreEnqueue: a preemptor that
// waited for its victims, a pod preemption took out of its binding cycle, a pod the first
// attempt left unschedulable. The harness chooses the order, as it does for the first attempts;
// the queue's clock stands still, so no backoff ends by itself. Pod groups' members are left out
// (retryFailedMembers in group.go retries those whose binding failed at once).
func (h *harness) retryRounds(ctx context.Context, pending []*v1.Pod, res *Result) error {
	reports := map[string]*Pod{}
	var order []*v1.Pod
	for _, p := range pending {
		if _, grouped := groupKey(p); grouped {
			continue
		}
		key := namespaceOf(p) + "/" + p.Name
		for i := range res.Pods {
			if res.Pods[i].Pod == key {
				reports[key] = &res.Pods[i]
				order = append(order, p)
			}
		}
	}
	seq := 0
	for round := 0; round < maxRetryRounds; round++ {
		live := map[string]*v1.Pod{}
		for _, p := range order {
			if got, ok, err := h.retryable(ctx, p); err != nil {
				return err
			} else if ok {
				live[namespaceOf(p)+"/"+p.Name] = got
			}
		}
		candidates := make([]*v1.Pod, 0, len(live))
		for _, p := range order {
			if got := live[namespaceOf(p)+"/"+p.Name]; got != nil {
				candidates = append(candidates, p)
			}
		}
		sort.SliceStable(candidates, func(i, j int) bool {
			return priorityOf(live[namespaceOf(candidates[i])+"/"+candidates[i].Name]) > priorityOf(live[namespaceOf(candidates[j])+"/"+candidates[j].Name])
		})
		progressed := false
		for _, p := range candidates {
			key := namespaceOf(p) + "/" + p.Name
			// An earlier retry of the round may have changed the pod (bound it by preempting...).
			got, ok, err := h.retryable(ctx, p)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			out, err := h.retry(ctx, p, got)
			if err != nil {
				return fmt.Errorf("pod %s, retry: %w", key, err)
			}
			seq++
			out.Seq = seq
			if out.Node != "" || len(out.Victims) > 0 {
				progressed = true
			}
			reports[key].Retries = append(reports[key].Retries, out)
		}
		if !progressed {
			break
		}
	}
	for _, p := range order {
		final, err := h.finalOf(ctx, p)
		if err != nil {
			return err
		}
		reports[namespaceOf(p)+"/"+p.Name].Final = final
	}
	return nil
}

func priorityOf(p *v1.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// retryable returns the pod as the API holds it when it can be tried again: unbound, out of any
// binding cycle, and let into activeQ by every PreEnqueue plugin.
func (h *harness) retryable(ctx context.Context, pending *v1.Pod) (*v1.Pod, bool, error) {
	if err := h.settle(ctx); err != nil {
		return nil, false, err
	}
	p, err := h.cluster.Client.CoreV1().Pods(namespaceOf(pending)).Get(ctx, pending.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	f := h.sched.Profiles[p.Spec.SchedulerName]
	if f == nil || p.Spec.NodeName != "" || f.GetPodInPreBind(p.UID) != nil || f.GetWaitingPod(p.UID) != nil {
		return nil, false, nil
	}
	if assumed, err := h.sched.Cache.IsAssumedPod(p); err == nil && assumed {
		return nil, false, nil
	}
	for _, pl := range f.PreEnqueuePlugins() {
		if !pl.PreEnqueue(ctx, p).IsSuccess() {
			return nil, false, nil
		}
	}
	return p, true, nil
}

// retry moves the pod from wherever the queue keeps it into activeQ and runs one attempt.
func (h *harness) retry(ctx context.Context, pending, live *v1.Pod) (Pod, error) {
	h.forceNodeName = pending.Spec.NodeName
	h.host, h.bestNodes, h.failure, h.nominating, h.popErr = "", nil, nil, nil, nil
	h.afterSelection.Store(nil)
	h.cluster.DeletedPods()
	h.cluster.Writes()
	h.gateChecked = false
	h.sched.SchedulingQueue.Activate(klog.FromContext(ctx), map[string]*v1.Pod{live.Namespace + "/" + live.Name: live})
	created, err := h.waitForActive(ctx, live)
	if err != nil {
		return Pod{}, err
	}
	return h.run(ctx, live, created)
}

// finalOf is where the pod ended up: "bound NODE", "assumed NODE" (still in its binding cycle,
// waiting at Permit or in PreBind), "deleted" (a victim), or "pending", with " nominated NODE"
// when its status names one.
func (h *harness) finalOf(ctx context.Context, pending *v1.Pod) (string, error) {
	if err := h.settle(ctx); err != nil {
		return "", err
	}
	p, err := h.cluster.Client.CoreV1().Pods(namespaceOf(pending)).Get(ctx, pending.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "deleted", nil
	}
	if err != nil {
		return "", err
	}
	if p.Spec.NodeName != "" {
		return "bound " + p.Spec.NodeName, nil
	}
	if assumed, err := h.sched.Cache.IsAssumedPod(p); err == nil && assumed {
		if c, err := h.sched.Cache.GetPod(p); err == nil {
			return "assumed " + c.Spec.NodeName, nil
		}
	}
	if p.Status.NominatedNodeName != "" {
		return "pending nominated " + p.Status.NominatedNodeName, nil
	}
	return "pending", nil
}
