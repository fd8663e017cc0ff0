// Package cluster stands in for kube-apiserver in front of a fake clientset: every object goes
// through the defaulting, mutating admission (Priority, DefaultTolerationSeconds) and create
// strategy a real API server applies, then into the fake object tracker the informers watch.
// Every write gets a new resourceVersion (the scheduler ignores updates that keep it), an update
// from a stale copy meets a conflict, and binding through pods/binding sets spec.nodeName, as the real subresource does. The
// resourceclaim controller's part (claims for a pod's template entries) is in claims.go.
package cluster

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/admission"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic/registry"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	schedulingapi "k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingapiv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	kubefeatures "k8s.io/kubernetes/pkg/features"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
)

// epoch is the creation time of objects that carry none, so runs are reproducible.
var epoch = metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))

// Cluster is the fake API server.
type Cluster struct {
	Client  *fake.Clientset
	tracker clienttesting.ObjectTracker

	priority    *priority.Plugin
	tolerations *defaulttolerationseconds.Plugin

	mu      sync.Mutex
	deleted []string
	// writes is the timeline of the scheduler's writes to pods, oldest first (Writes).
	writes []string
	// BeforeDelete, when set, runs before a pod's deletion is stored; what it returns (if not
	// "") joins the writes first.
	BeforeDelete func(namespace, name string) string
}

// New starts a fake API server holding the system PriorityClasses and the given ones, which
// Priority admission resolves pods against.
func New(ctx context.Context, priorityClasses []*schedulingv1.PriorityClass) (*Cluster, error) {
	c := &Cluster{}
	c.tracker = &versionedTracker{ObjectTracker: clienttesting.NewObjectTracker(scheme.Scheme, scheme.Codecs.UniversalDecoder()), onPodWrite: c.notePodWrite}
	c.Client = newClientset(c.tracker)
	c.Client.PrependReactor("create", "pods", c.bind)
	c.Client.PrependReactor("delete", "pods", c.recordDelete)
	c.Client.PrependReactor("create", "resourceclaims", generateClaimName)

	classes := map[string]*schedulingv1.PriorityClass{}
	for _, pc := range schedulingapiv1.SystemPriorityClasses() {
		classes[pc.Name] = pc.DeepCopy()
	}
	for _, pc := range priorityClasses {
		classes[pc.Name] = pc
	}
	for _, pc := range classes {
		if err := c.Create(ctx, pc); err != nil {
			return nil, err
		}
	}

	// Admission reads PriorityClasses through its own informers, synced before any pod arrives.
	factory := informers.NewSharedInformerFactory(c.Client, 0)
	c.priority = priority.NewPlugin()
	c.priority.SetExternalKubeClientSet(c.Client)
	c.priority.SetExternalKubeInformerFactory(factory)
	c.tolerations = defaulttolerationseconds.NewDefaultTolerationSeconds()
	c.tolerations.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	for _, p := range []admission.InitializationValidator{c.priority, c.tolerations} {
		if err := p.ValidateInitialization(); err != nil {
			return nil, err
		}
	}
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("admission informer for %v did not sync", typ)
		}
	}
	return c, nil
}

// Create stores an object as kube-apiserver would on create.
func (c *Cluster) Create(ctx context.Context, obj runtime.Object) error {
	obj = obj.DeepCopyObject()
	legacyscheme.Scheme.Default(obj)
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if m.GetUID() == "" {
		m.SetUID(uidFor(obj, m))
	}
	if ts := m.GetCreationTimestamp(); ts.IsZero() {
		m.SetCreationTimestamp(epoch)
	}
	switch o := obj.(type) {
	case *v1.Pod:
		if o.Namespace == "" {
			o.Namespace = metav1.NamespaceDefault
		}
		admitted, err := c.admitPod(ctx, o)
		if err != nil {
			return fmt.Errorf("pod %s/%s: %w", o.Namespace, o.Name, err)
		}
		obj = admitted
	case *schedulingv1beta1.PodGroup:
		if o.Namespace == "" {
			o.Namespace = metav1.NamespaceDefault
		}
		admitted, err := c.admitPodGroup(ctx, o)
		if err != nil {
			return fmt.Errorf("podgroup %s/%s: %w", o.Namespace, o.Name, err)
		}
		obj = admitted
	case *schedulingv1alpha3.CompositePodGroup:
		if o.Namespace == "" {
			o.Namespace = metav1.NamespaceDefault
		}
		admitted, err := c.admitCompositePodGroup(ctx, o)
		if err != nil {
			return fmt.Errorf("compositepodgroup %s/%s: %w", o.Namespace, o.Name, err)
		}
		obj = admitted
	case *v1.Node:
		withKubeletDefaults(o)
	}
	gvks, _, err := legacyscheme.Scheme.ObjectKinds(obj)
	if err != nil {
		return err
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	return c.tracker.Create(gvr, obj, m.GetNamespace())
}

// DeletedPods returns the pods deleted since the last call ("namespace/name").
func (c *Cluster) DeletedPods() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.deleted
	c.deleted = nil
	return out
}

// Writes returns the writes to pods since the last call, oldest first: "nominate ns/name node"
// and "unnominate ns/name" (status.nominatedNodeName set or cleared, by preemption or the binding
// cycle), "delete ns/name" (a victim) and "bind ns/name node".
func (c *Cluster) Writes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.writes
	c.writes = nil
	return out
}

// Note adds an entry the harness observed itself to the writes (a victim's requeue).
func (c *Cluster) Note(w string) { c.note(w) }

func (c *Cluster) note(w string) {
	c.mu.Lock()
	c.writes = append(c.writes, w)
	c.mu.Unlock()
}

// notePodWrite records a change of a pod's nominated node; a binding's own clearing is not one
// (the bind entry stands for it).
func (c *Cluster) notePodWrite(old, updated *v1.Pod) {
	if old.Spec.NodeName == "" && updated.Spec.NodeName != "" {
		return
	}
	before, after := old.Status.NominatedNodeName, updated.Status.NominatedNodeName
	switch {
	case before == after:
	case after == "":
		c.note("unnominate " + updated.Namespace + "/" + updated.Name)
	default:
		c.note("nominate " + updated.Namespace + "/" + updated.Name + " " + after)
	}
}

// admitPod runs mutating admission and the pod create strategy on the internal type, as the
// API server's create handler does. A bound pod keeps the status its kubelet reported.
func (c *Cluster) admitPod(ctx context.Context, pod *v1.Pod) (*v1.Pod, error) {
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(pod, internal, nil); err != nil {
		return nil, err
	}
	ctx = genericapirequest.WithNamespace(ctx, pod.Namespace)
	attrs := admission.NewAttributesRecord(internal, nil, api.Kind("Pod").WithVersion("v1"), pod.Namespace, pod.Name,
		api.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := c.priority.Admit(ctx, attrs, nil); err != nil {
		// A scenario may set spec.priority itself, which the real admission forbids: keep it.
		if pod.Spec.Priority == nil {
			return nil, err
		}
	}
	if err := c.tolerations.Admit(ctx, attrs, nil); err != nil {
		return nil, err
	}
	podstore.Strategy.PrepareForCreate(ctx, internal)
	out := &v1.Pod{}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		return nil, err
	}
	if pod.Spec.NodeName != "" {
		status := pod.Status.DeepCopy()
		if status.QOSClass == "" {
			status.QOSClass = out.Status.QOSClass
		}
		if status.Phase == "" {
			status.Phase = v1.PodRunning
		}
		out.Status = *status
	} else {
		// What the resourceclaim controller wrote (see claims.go), as if it had done so before
		// the scheduler saw the pod.
		out.Status.ResourceClaimStatuses = pod.Status.ResourceClaimStatuses
	}
	return out, nil
}

// admitPodGroup runs Priority admission on a new PodGroup (its priority from its class, with
// GenericWorkload), on the internal type as the API server's create handler does.
func (c *Cluster) admitPodGroup(ctx context.Context, pg *schedulingv1beta1.PodGroup) (*schedulingv1beta1.PodGroup, error) {
	out := &schedulingv1beta1.PodGroup{}
	if err := c.admitGroupOnCreate(ctx, pg, &schedulingapi.PodGroup{}, out, pg.Namespace, pg.Name, "PodGroup", "podgroups", "v1beta1"); err != nil {
		return nil, err
	}
	return out, nil
}

// admitCompositePodGroup runs Priority admission on a new CompositePodGroup (its priority from its
// class, with CompositePodGroup), as admitPodGroup does for a PodGroup.
func (c *Cluster) admitCompositePodGroup(ctx context.Context, cpg *schedulingv1alpha3.CompositePodGroup) (*schedulingv1alpha3.CompositePodGroup, error) {
	out := &schedulingv1alpha3.CompositePodGroup{}
	if err := c.admitGroupOnCreate(ctx, cpg, &schedulingapi.CompositePodGroup{}, out, cpg.Namespace, cpg.Name, "CompositePodGroup", "compositepodgroups", "v1alpha3"); err != nil {
		return nil, err
	}
	return out, nil
}

// admitGroupOnCreate converts a new scheduling.k8s.io object to its internal type, runs Priority
// admission on it as a create, and converts the admitted object into out.
func (c *Cluster) admitGroupOnCreate(ctx context.Context, in, internal, out runtime.Object, namespace, name, kind, resource, version string) error {
	if err := legacyscheme.Scheme.Convert(in, internal, nil); err != nil {
		return err
	}
	ctx = genericapirequest.WithNamespace(ctx, namespace)
	attrs := admission.NewAttributesRecord(internal, nil, schedulingapi.Kind(kind).WithVersion(version), namespace, name,
		schedulingapi.Resource(resource).WithVersion(version), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := c.priority.Admit(ctx, attrs, nil); err != nil {
		return err
	}
	return legacyscheme.Scheme.Convert(internal, out, nil)
}

// withKubeletDefaults fills what a kubelet reports for its node when the scenario leaves it out.
func withKubeletDefaults(n *v1.Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = n.Status.Capacity.DeepCopy()
	}
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	if _, ok := n.Labels[v1.LabelHostname]; !ok {
		n.Labels[v1.LabelHostname] = n.Name
	}
}

// uidFor derives a stable UID from the object's kind and name, so reruns are identical.
func uidFor(obj runtime.Object, m metav1.Object) types.UID {
	kind := fmt.Sprintf("%T", obj)
	sum := sha256.Sum256([]byte(kind + "/" + m.GetNamespace() + "/" + m.GetName()))
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16]))
}

// bind implements the pods/binding subresource: the fake tracker would ignore it.
func (c *Cluster) bind(action clienttesting.Action) (bool, runtime.Object, error) {
	create, ok := action.(clienttesting.CreateAction)
	if !ok || action.GetSubresource() != "binding" {
		return false, nil, nil
	}
	binding := create.GetObject().(*v1.Binding)
	gvr := v1.SchemeGroupVersion.WithResource("pods")
	obj, err := c.tracker.Get(gvr, binding.Namespace, binding.Name, metav1.GetOptions{})
	if err != nil {
		return true, nil, err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	if pod.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %s/%s is already assigned to node %q", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	pod.Spec.NodeName = binding.Target.Name
	// As kube-apiserver's binding subresource does (pkg/registry/core/pod/storage).
	if utilfeature.DefaultFeatureGate.Enabled(kubefeatures.ClearingNominatedNodeNameAfterBinding) {
		pod.Status.NominatedNodeName = ""
	}
	if err := c.tracker.Update(gvr, pod, pod.Namespace, metav1.UpdateOptions{}); err != nil {
		return true, nil, err
	}
	c.note("bind " + pod.Namespace + "/" + pod.Name + " " + binding.Target.Name)
	return true, binding, nil
}

func (c *Cluster) recordDelete(action clienttesting.Action) (bool, runtime.Object, error) {
	if d, ok := action.(clienttesting.DeleteAction); ok && action.GetSubresource() == "" {
		if c.BeforeDelete != nil {
			if w := c.BeforeDelete(d.GetNamespace(), d.GetName()); w != "" {
				c.note(w)
			}
		}
		c.mu.Lock()
		c.deleted = append(c.deleted, d.GetNamespace()+"/"+d.GetName())
		c.writes = append(c.writes, "delete "+d.GetNamespace()+"/"+d.GetName())
		c.mu.Unlock()
	}
	return false, nil, nil
}

// newClientset is fake.NewSimpleClientset over the given tracker.
func newClientset(tracker clienttesting.ObjectTracker) *fake.Clientset {
	cs := &fake.Clientset{}
	cs.AddReactor("*", "*", clienttesting.ObjectReaction(tracker))
	cs.AddWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		return err == nil, w, err
	})
	return cs
}

// versionedTracker gives every stored object a new resourceVersion, as the API server does.
type versionedTracker struct {
	clienttesting.ObjectTracker
	mu      sync.Mutex
	version int64
	// onPodWrite sees every update of a stored pod, before and after.
	onPodWrite func(old, updated *v1.Pod)
}

func (t *versionedTracker) notePod(gvr schema.GroupVersionResource, obj runtime.Object, ns string) {
	updated, ok := obj.(*v1.Pod)
	if !ok || gvr.Resource != "pods" || t.onPodWrite == nil {
		return
	}
	if old, err := t.ObjectTracker.Get(gvr, ns, updated.Name); err == nil {
		t.onPodWrite(old.(*v1.Pod), updated)
	}
}

func (t *versionedTracker) stamp(obj runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	t.version++
	m.SetResourceVersion(strconv.FormatInt(t.version, 10))
	return nil
}

// checkVersion refuses an update written from a stale copy, as the API server's optimistic
// concurrency does: a resourceVersion that is set must be the stored object's. (An update without
// one is unconditional, as every kind the scheduler updates allows.) DynamicResources' PreBind
// relies on it: a gang's members write the group's claim from the copy PreFilter read, and all
// but the first meet the conflict, read the claim again and find it allocated.
func (t *versionedTracker) checkVersion(gvr schema.GroupVersionResource, obj runtime.Object, ns string) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if m.GetResourceVersion() == "" {
		return nil
	}
	stored, err := t.ObjectTracker.Get(gvr, ns, m.GetName())
	if err != nil {
		// Not stored: the tracker answers NotFound itself.
		return nil
	}
	sm, err := meta.Accessor(stored)
	if err != nil {
		return err
	}
	if sm.GetResourceVersion() != m.GetResourceVersion() {
		return apierrors.NewConflict(gvr.GroupResource(), m.GetName(), errors.New(registry.OptimisticLockErrorMsg))
	}
	return nil
}

func (t *versionedTracker) Add(obj runtime.Object) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.stamp(obj); err != nil {
		return err
	}
	return t.ObjectTracker.Add(obj)
}

func (t *versionedTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.stamp(obj); err != nil {
		return err
	}
	return t.ObjectTracker.Create(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.checkVersion(gvr, obj, ns); err != nil {
		return err
	}
	if err := t.stamp(obj); err != nil {
		return err
	}
	t.notePod(gvr, obj, ns)
	return t.ObjectTracker.Update(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.stamp(obj); err != nil {
		return err
	}
	t.notePod(gvr, obj, ns)
	return t.ObjectTracker.Patch(gvr, obj, ns, opts...)
}
