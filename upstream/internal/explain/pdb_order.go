package explain

import (
	"sort"

	policy "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	policyinformers "k8s.io/client-go/informers/policy"
	policyv1informers "k8s.io/client-go/informers/policy/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
)

// Upstream's preemption counts a victim's PodDisruptionBudgets in the order its lister returns
// them and stops at the first one violated (preemption.FilterVictimsWithPDBViolation), so with a
// pod under two budgets the victims depend on the informer's map order. The harness hands the
// scheduler an informer factory whose PDB lister returns them sorted by namespace and name: one of
// upstream's possible answers, the same on every run.
type sortedPDBInformers struct {
	informers.SharedInformerFactory
}

func (f sortedPDBInformers) Policy() policyinformers.Interface {
	return sortedPolicy{f.SharedInformerFactory.Policy()}
}

type sortedPolicy struct{ policyinformers.Interface }

func (p sortedPolicy) V1() policyv1informers.Interface { return sortedPolicyV1{p.Interface.V1()} }

type sortedPolicyV1 struct{ policyv1informers.Interface }

func (p sortedPolicyV1) PodDisruptionBudgets() policyv1informers.TypedPodDisruptionBudgetInformer {
	return sortedPDBInformer{p.Interface.PodDisruptionBudgets()}
}

type sortedPDBInformer struct {
	policyv1informers.TypedPodDisruptionBudgetInformer
}

func (i sortedPDBInformer) Lister() policylisters.PodDisruptionBudgetLister {
	return sortedPDBLister{i.TypedPodDisruptionBudgetInformer.Lister()}
}

type sortedPDBLister struct {
	policylisters.PodDisruptionBudgetLister
}

func (l sortedPDBLister) List(selector labels.Selector) ([]*policy.PodDisruptionBudget, error) {
	pdbs, err := l.PodDisruptionBudgetLister.List(selector)
	sort.Slice(pdbs, func(i, j int) bool {
		if pdbs[i].Namespace != pdbs[j].Namespace {
			return pdbs[i].Namespace < pdbs[j].Namespace
		}
		return pdbs[i].Name < pdbs[j].Name
	})
	return pdbs, err
}
