package explain

// Groups a scenario creates only once their tree's members exist (the annotation
// createAfterMembers), so that the queue meets a PodGroup or CompositePodGroup arriving while
// members wait: held for their group, or gated by GangScheduling until the tree is complete.
// What moves them on then is the cache's and the queue's handling of the add and the queueing
// hints of its event (GangScheduling's PodGroup/Add and CompositePodGroup/Add).

import (
	"context"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// createAfterMembers marks a PodGroup or CompositePodGroup of `objects` that is created after its
// tree's pending members, instead of with the other objects.
const createAfterMembers = "differential.kube-scheduler-ts/create-after-members"

// createdAfterMembers says whether the object waits for its tree's members.
func createdAfterMembers(o runtime.Object) bool {
	switch o.(type) {
	case *schedulingv1beta1.PodGroup, *schedulingv1alpha3.CompositePodGroup:
	default:
		return false
	}
	m, err := meta.Accessor(o)
	return err == nil && m.GetAnnotations()[createAfterMembers] == "true"
}

// rootOfGroupObject is "namespace/name" of the root of the tree the group object is in, as
// groupKey gives it for a member.
func rootOfGroupObject(o runtime.Object) string {
	var ns, name, parent string
	var ok bool
	switch g := o.(type) {
	case *schedulingv1beta1.PodGroup:
		ns, name = namespaceOrDefault(g.Namespace), g.Name
		parent, ok = groupParents["pg:"+ns+"/"+name]
	case *schedulingv1alpha3.CompositePodGroup:
		ns, name = namespaceOrDefault(g.Namespace), g.Name
		parent, ok = groupParents["cpg:"+ns+"/"+name]
	}
	for depth := 0; ok && depth < 8; depth++ {
		name = parent
		parent, ok = groupParents["cpg:"+ns+"/"+name]
	}
	return ns + "/" + name
}

// createLateGroups creates the held-back groups of the tree `key` once the queue holds every
// member (in activeQ, gated, or waiting for its group), in the scenario's order.
func (h *harness) createLateGroups(ctx context.Context, key string, members []*v1.Pod) error {
	var mine []runtime.Object
	for _, o := range h.late {
		if rootOfGroupObject(o) == key {
			mine = append(mine, o)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		pods, _ := h.sched.SchedulingQueue.PendingPods()
		held := map[string]bool{}
		for _, p := range pods {
			held[p.Namespace+"/"+p.Name] = true
		}
		for _, m := range members {
			if !held[namespaceOf(m)+"/"+m.Name] {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the members in the queue before their late groups: %w", err)
	}
	for _, o := range mine {
		if err := h.cluster.Create(ctx, o.DeepCopyObject()); err != nil {
			return err
		}
	}
	// A group joining a tree whose entity is queued (and maybe active already) must be in the
	// entity's tree before the cycle, as it is at once on the TypeScript side; a late root makes
	// the entity itself, which waitForGroupActive waits for.
	for _, o := range mine {
		typ, ns, name := groupObjectKey(o)
		if ns+"/"+name == key {
			continue
		}
		rootNS, rootName, _ := strings.Cut(key, "/")
		err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
			for _, t := range []fwk.EntityKeyType{fwk.CompositePodGroupKeyType, fwk.PodGroupKeyType} {
				if root, ok := h.sched.SchedulingQueue.GetPodGroup(rootName, rootNS, t); ok && treeHolds(root.PodGroupInfo, typ, name) {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("waiting for %s %s/%s in its tree's queued entity: %w", typ, ns, name, err)
		}
	}
	return nil
}

// groupObjectKey is the entity key's parts of a PodGroup or CompositePodGroup object.
func groupObjectKey(o runtime.Object) (fwk.EntityKeyType, string, string) {
	switch g := o.(type) {
	case *schedulingv1beta1.PodGroup:
		return fwk.PodGroupKeyType, namespaceOrDefault(g.Namespace), g.Name
	case *schedulingv1alpha3.CompositePodGroup:
		return fwk.CompositePodGroupKeyType, namespaceOrDefault(g.Namespace), g.Name
	}
	return "", "", ""
}

// treeHolds says whether the queued tree has the group.
func treeHolds(pgi *framework.PodGroupInfo, typ fwk.EntityKeyType, name string) bool {
	if pgi == nil {
		return false
	}
	if pgi.Type == typ && pgi.Name == name {
		return true
	}
	for _, c := range pgi.Children {
		if treeHolds(c, typ, name) {
			return true
		}
	}
	return false
}
