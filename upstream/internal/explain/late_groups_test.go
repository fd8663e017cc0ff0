package explain

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

func TestLateGroups(t *testing.T) {
	held := map[string]string{createAfterMembers: "true"}
	root := &schedulingv1alpha3.CompositePodGroup{ObjectMeta: metav1.ObjectMeta{Name: "root"}}
	mid := &schedulingv1alpha3.CompositePodGroup{ObjectMeta: metav1.ObjectMeta{Name: "mid", Annotations: held}, Spec: schedulingv1alpha3.CompositePodGroupSpec{ParentCompositePodGroupName: ptr.To("root")}}
	leaf := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "leaf", Namespace: "default", Annotations: held}, Spec: schedulingv1beta1.PodGroupSpec{ParentCompositePodGroupName: ptr.To("mid")}}
	alone := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "alone"}}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Annotations: held}}
	groupParents = map[string]string{"cpg:default/mid": "root", "pg:default/leaf": "mid"}
	defer func() { groupParents = map[string]string{} }()
	cases := []struct {
		name string
		obj  runtime.Object
		late bool
		root string
	}{
		{"a root composite, not held", root, false, "default/root"},
		{"a held composite under the root", mid, true, "default/root"},
		{"a held PodGroup two levels down", leaf, true, "default/root"},
		{"a PodGroup without a parent", alone, false, "default/alone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := createdAfterMembers(c.obj); got != c.late {
				t.Errorf("createdAfterMembers = %v, want %v", got, c.late)
			}
			if got := rootOfGroupObject(c.obj); got != c.root {
				t.Errorf("rootOfGroupObject = %q, want %q", got, c.root)
			}
		})
	}
	if createdAfterMembers(pod) {
		t.Error("only a PodGroup or CompositePodGroup can be held back")
	}
}
