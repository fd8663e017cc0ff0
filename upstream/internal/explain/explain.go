// Package explain schedules a scenario's pending pods with upstream's own scheduler, one attempt
// each in order, and reports every decision in the schema of the project's
// `kube-scheduler-ts explain --tie-break name` (scenarios/README.md in the shared docs).
//
// Upstream's code does all the work: configuration loading (defaults and validation), the
// Scheduler from scheduler.New with its cache, snapshot, queue, event handlers, framework and
// default plugins, preemption and binding. The harness only chooses which pod is popped (the next
// pending one), breaks ties between top-scored nodes by name, and records what the framework
// reported (see recordingFramework).
package explain

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/profile"
	testingclock "k8s.io/utils/clock/testing"

	"kube-scheduler-ts/upstream/internal/cluster"
	"kube-scheduler-ts/upstream/internal/scenario"
)

// Status is a plugin's verdict.
type Status struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

// Pod is one pending pod's attempt.
type Pod struct {
	Pod           string                      `json:"pod"`
	Outcome       string                      `json:"outcome"`
	Node          string                      `json:"node"`
	Message       string                      `json:"message"`
	Filter        map[string]Status           `json:"filter"`
	PreFilter     *Status                     `json:"preFilter"`
	Scores        map[string]map[string]int64 `json:"scores"`
	BestNodes     []string                    `json:"bestNodes"`
	NominatedNode string                      `json:"nominatedNode"`
	Victims       []string                    `json:"victims"`
	// Claims is set for a pod with resource claims only (claims.go).
	Claims []Claim `json:"claims,omitempty"`
	// ExtendedResourceDevices are the devices allocated for the pod's extended resources backed
	// by a DeviceClass (the claim PreBind made for them); set only when there is such a claim.
	ExtendedResourceDevices []Device `json:"extendedResourceDevices,omitempty"`
	// Writes is the attempt's timeline: the writes to pods it caused, oldest first (see
	// cluster.Writes), and "gate ns/name Plugin: message" for the preemptor's PreEnqueue verdict
	// as its first victim is deleted.
	Writes []string `json:"writes"`
	// Retries are the pod's later attempts, once every pending pod had its first (retries.go).
	Retries []Pod `json:"retries,omitempty"`
	// Final is where the pod ended up after the retries (retries.go); "" in a retry's report.
	Final string `json:"final,omitempty"`
	// Seq is a retry's place among all the run's retries, from 1 (retries.go); 0 otherwise.
	Seq int `json:"seq,omitempty"`
}

// Result is the whole output.
type Result struct {
	Pods []Pod `json:"pods"`
}

// ConfigError is a KubeSchedulerConfiguration that upstream refuses to load or validate.
type ConfigError struct{ Err error }

func (e ConfigError) Error() string { return "configuration: " + e.Err.Error() }

// settleTimeout bounds each wait for the informers and the binding and preemption goroutines.
const settleTimeout = 30 * time.Second

// Run schedules the scenario's pending pods and reports each attempt.
func Run(ctx context.Context, sc *scenario.Scenario) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cfg, err := loadConfiguration(sc.Config)
	if err != nil {
		return nil, ConfigError{err}
	}
	var classes []*schedulingv1.PriorityClass
	for _, o := range sc.Objects {
		if pc, ok := o.(*schedulingv1.PriorityClass); ok {
			classes = append(classes, pc)
		}
	}
	c, err := cluster.New(ctx, classes)
	if err != nil {
		return nil, err
	}
	if err := populate(ctx, c, sc); err != nil {
		return nil, err
	}
	h, err := newHarness(ctx, c, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{Pods: []Pod{}}
	setGroupParents(sc.Objects)
	for _, o := range sc.Objects {
		if createdAfterMembers(o) {
			h.late = append(h.late, o)
		}
	}
	grouped := map[string]bool{}
	for _, pending := range sc.Pending {
		if key, ok := groupKey(pending); ok {
			// A pod group's pending members are created together and scheduled in one group cycle.
			if grouped[key] {
				continue
			}
			grouped[key] = true
			pods, err := h.attemptGroup(ctx, groupMembers(sc.Pending, key))
			if err != nil {
				return nil, fmt.Errorf("pod group %s: %w", key, err)
			}
			res.Pods = append(res.Pods, pods...)
			continue
		}
		p, err := h.attempt(ctx, pending)
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", namespaceOf(pending), pending.Name, err)
		}
		res.Pods = append(res.Pods, p)
	}
	if err := h.retryRounds(ctx, sc.Pending, res); err != nil {
		return nil, err
	}
	return res, nil
}

// loadConfiguration reads the scenario's configuration (or none) the way kube-scheduler's
// --config does: decoded with defaults, then validated.
func loadConfiguration(data []byte) (*schedulerapi.KubeSchedulerConfiguration, error) {
	if data == nil {
		data = []byte(`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration"}`)
	}
	dir, err := os.MkdirTemp("", "explain-config-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "config.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return nil, err
	}
	cfg, err := options.LoadConfigFromFile(klog.Background(), file)
	if err != nil {
		return nil, err
	}
	if errs := validation.ValidateKubeSchedulerConfiguration(cfg); errs != nil {
		return nil, errs
	}
	return cfg, nil
}

// populate creates the scenario's cluster: objects first (namespaces, classes, storage, ...),
// then nodes, then the pods already bound.
func populate(ctx context.Context, c *cluster.Cluster, sc *scenario.Scenario) error {
	hasDefault := false
	for _, o := range sc.Objects {
		if ns, ok := o.(*v1.Namespace); ok && ns.Name == metav1.NamespaceDefault {
			hasDefault = true
		}
	}
	if !hasDefault {
		if err := c.Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: metav1.NamespaceDefault}}); err != nil {
			return err
		}
	}
	var all []runtime.Object
	for _, o := range sc.Objects {
		if _, isClass := o.(*schedulingv1.PriorityClass); !isClass && !createdAfterMembers(o) {
			all = append(all, o)
		}
	}
	for _, n := range sc.Nodes {
		all = append(all, n)
	}
	for _, p := range sc.Pods {
		p = p.DeepCopy()
		p.Namespace = namespaceOf(p)
		if err := c.CreateTemplateClaims(ctx, p); err != nil {
			return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		all = append(all, p)
	}
	for _, o := range all {
		if err := c.Create(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// harness drives one upstream Scheduler through the pending pods.
type harness struct {
	cluster *cluster.Cluster
	sched   *scheduler.Scheduler
	rec     *attempt

	// Per attempt: the pod to pop, and what the scheduling cycle ended with.
	expectedUID   string
	forceNodeName string
	popErr        error
	host          string
	bestNodes     []string
	failure       *fwk.Status
	nominating    *fwk.NominatingInfo
	// afterSelection is how the attempt failed once a node was chosen (Reserve, Permit, or the
	// binding cycle, which runs in its own goroutine): the pod goes back to the queue unbound.
	afterSelection atomic.Pointer[fwk.Status]
	// preemptor is the pod being attempted; gateChecked says its gate was read at a deletion.
	preemptor   *v1.Pod
	gateChecked bool
	// group is set while a pod group's cycle runs: what each member went through (group.go).
	group *groupAttempt
	// inMemory holds the victims preempted without a deletion, and which went back to the queue.
	inMemory *inMemoryVictims
	// late holds the groups created after their tree's members (late_groups.go).
	late []runtime.Object
}

func newHarness(ctx context.Context, c *cluster.Cluster, cfg *schedulerapi.KubeSchedulerConfiguration) (*harness, error) {
	informerFactory := sortedPDBInformers{scheduler.NewInformerFactory(c.Client, 0, nil)}
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: c.Client.EventsV1()})
	// The queue's clock stands still: a pod that failed stays in backoff, so the next pod popped
	// is always the next pending one.
	clock := testingclock.NewFakeClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	victims := &inMemoryVictims{requeued: map[string]bool{}}
	recorders := profile.NewRecorderFactory(broadcaster)
	sched, err := scheduler.New(ctx, c.Client, informerFactory, nil, func(name string) events.EventRecorderLogger {
		return preemptionRecorder{EventRecorderLogger: recorders(name), victims: victims}
	},
		scheduler.WithComponentConfigVersion(cfg.TypeMeta.APIVersion),
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithExtenders(cfg.Extenders...),
		// One worker: the Filter walk and preemption's dry run visit nodes in one order, as ours
		// do, instead of in a race between goroutines.
		scheduler.WithParallelism(1),
		scheduler.WithClock(clock),
	)
	if err != nil {
		return nil, err
	}
	h := &harness{cluster: c, sched: sched, rec: &attempt{}, inMemory: victims}
	c.BeforeDelete = h.gateAtFirstVictim
	for name, f := range sched.Profiles {
		sched.Profiles[name] = &recordingFramework{Framework: f, rec: h.rec, group: func() *groupAttempt { return h.group }, placement: h.currentPlacement}
	}
	h.wrapScheduler()

	broadcaster.StartRecordingToSink(ctx.Done())
	informerFactory.Start(ctx.Done())
	for typ, ok := range informerFactory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		return nil, err
	}
	if sched.APIDispatcher != nil {
		sched.APIDispatcher.Run(klog.FromContext(ctx))
	}
	return h, nil
}

// wrapScheduler hooks the harness in at the Scheduler's replaceable functions.
func (h *harness) wrapScheduler() {
	nextEntity := h.sched.NextEntity
	h.sched.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		entity, err := nextEntity(logger)
		if err != nil {
			return entity, err
		}
		if h.group != nil {
			pgi, ok := entity.(*framework.QueuedPodGroupInfo)
			if !ok || pgi.GetNamespace()+"/"+pgi.GetName() != h.group.key {
				h.popErr = fmt.Errorf("the queue popped %v instead of the pending pod group %s", entity, h.group.key)
				return nil, h.popErr
			}
			return pgi, nil
		}
		qpi, ok := entity.(*framework.QueuedPodInfo)
		if !ok || string(qpi.Pod.UID) != h.expectedUID {
			h.popErr = fmt.Errorf("the queue popped %v instead of the pending pod", entity)
			return nil, h.popErr
		}
		if h.forceNodeName != "" {
			// `explain` tries a pending pod that names a node as it is written: NodeName decides.
			// (Preemption would read the API's copy, which names none: the generator keeps such
			// pods to scenarios without preemption, as the corpus does.)
			pod := qpi.Pod.DeepCopy()
			pod.Spec.NodeName = h.forceNodeName
			if _, err := qpi.Update(pod); err != nil {
				return nil, err
			}
		}
		return qpi, nil
	}

	schedulePod := h.sched.SchedulePod
	h.sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		h.rec.start()
		result, err := schedulePod(ctx, f, state, podInfo)
		h.rec.stop()
		if h.group != nil {
			h.group.tried(podInfo.Pod, h.rec, h.placementPath())
		}
		if err != nil {
			return result, err
		}
		// Upstream picks among equal totals at random; `--tie-break name` takes the first by name.
		h.bestNodes = []string{result.SuggestedHost}
		if result.FeasibleNodes > 1 && len(h.rec.scores) == 0 {
			// No score plugin and no prioritizing extender: upstream scores every node 1.
			for node := range h.rec.passed {
				h.rec.scores = append(h.rec.scores, fwk.NodePluginScores{Name: node, TotalScore: 1})
			}
		}
		if len(h.rec.scores) > 0 {
			h.bestNodes = bestByTotal(h.rec.scores)
			result.SuggestedHost = h.bestNodes[0]
		}
		h.host = result.SuggestedHost
		if h.group != nil {
			h.group.placed(podInfo.Pod, h, h.placementPath(), state)
		}
		return result, nil
	}

	failureHandler := h.sched.FailureHandler
	h.sched.FailureHandler = func(ctx context.Context, f framework.Framework, podInfo *framework.QueuedPodInfo, status *fwk.Status, nominatingInfo *fwk.NominatingInfo, start time.Time) {
		if h.group != nil {
			h.group.failed(podInfo.Pod, status, nominatingInfo)
			failureHandler(ctx, f, podInfo, status, nominatingInfo, start)
			return
		}
		if string(podInfo.Pod.UID) != h.expectedUID {
			// Another pod's binding cycle failed meanwhile (a victim's PreBind cancelled or its
			// Permit wait rejected by preemption): it goes back to the queue, and is not this
			// attempt's outcome.
			key := podInfo.Pod.Namespace + "/" + podInfo.Pod.Name
			h.cluster.Note("requeue " + key)
			h.inMemory.requeue(key)
		} else if h.host != "" {
			h.afterSelection.CompareAndSwap(nil, status)
		} else if h.failure == nil {
			h.failure = status
			h.nominating = nominatingInfo
		}
		failureHandler(ctx, f, podInfo, status, nominatingInfo, start)
	}
}

func bestByTotal(scores []fwk.NodePluginScores) []string {
	var best []string
	var max int64
	for i, s := range scores {
		if i == 0 || s.TotalScore > max {
			max = s.TotalScore
			best = best[:0]
		}
		if s.TotalScore == max {
			best = append(best, s.Name)
		}
	}
	sort.Strings(best)
	return best
}

func namespaceOf(p *v1.Pod) string {
	if p.Namespace == "" {
		return metav1.NamespaceDefault
	}
	return p.Namespace
}

// attempt creates one pending pod, lets the Scheduler schedule it once, waits for the binding or
// the preemption it started to finish, and reports what happened.
func (h *harness) attempt(ctx context.Context, pending *v1.Pod) (Pod, error) {
	pod := pending.DeepCopy()
	pod.Namespace = namespaceOf(pod)
	h.forceNodeName = pod.Spec.NodeName
	pod.Spec.NodeName = ""
	h.host, h.bestNodes, h.failure, h.nominating, h.popErr = "", nil, nil, nil, nil
	h.afterSelection.Store(nil)
	h.cluster.DeletedPods()
	h.cluster.Writes()
	h.gateChecked = false
	if err := h.createTemplateClaims(ctx, pod); err != nil {
		return Pod{}, err
	}
	if err := h.cluster.Create(ctx, pod); err != nil {
		return Pod{}, err
	}
	created, err := h.waitForActive(ctx, pod)
	if err != nil {
		return Pod{}, err
	}
	return h.run(ctx, pod, created)
}

// run lets the Scheduler pop the pod (in activeQ by now) and schedule it once, waits for the
// binding or the preemption it started to finish, and reports what happened.
func (h *harness) run(ctx context.Context, pod, created *v1.Pod) (Pod, error) {
	h.expectedUID = string(created.UID)
	h.preemptor = created
	h.inMemory.take()
	h.sched.ScheduleOne(ctx)
	if h.popErr != nil {
		return Pod{}, h.popErr
	}
	out := newPodResult(pod)
	if h.failure == nil {
		setPlaced(&out, h.host, h.bestNodes, h.rec.filter, h.rec.scores)
		if err := h.waitForBinding(ctx, created); err != nil {
			return out, err
		}
		if s := h.afterSelection.Load(); s != nil {
			// Chosen but not bound: reported with the status that stopped it, as no node.
			out.Outcome, out.Node, out.Message = "Error", "", s.Message()
			if s.IsRejected() {
				out.Outcome = "Unschedulable"
			}
		}
		return h.finish(ctx, out, created)
	}
	setFailed(&out, h.failure, h.rec.preFilter, h.nominating)
	if out.NominatedNode != "" {
		victims, err := h.waitForPreemption(ctx, created)
		if err != nil {
			return out, err
		}
		inMemory, err := h.waitForRequeues(ctx)
		if err != nil {
			return out, err
		}
		out.Victims = append(victims, inMemory...)
		sort.Strings(out.Victims)
	}
	return h.finish(ctx, out, created)
}

// finish completes an attempt's report once the scheduler has caught up: claims and the writes.
func (h *harness) finish(ctx context.Context, out Pod, pod *v1.Pod) (Pod, error) {
	out, err := h.withClaims(ctx, out, pod)
	out.Writes = h.cluster.Writes()
	if out.Writes == nil {
		out.Writes = []string{}
	}
	return out, err
}

// gateAtFirstVictim is the cluster's BeforeDelete: the preemptor's PreEnqueue verdict while its
// first victim is being deleted (asynchronous preemption holds it with DefaultPreemption's).
func (h *harness) gateAtFirstVictim(string, string) string {
	if h.gateChecked || h.preemptor == nil {
		return ""
	}
	h.gateChecked = true
	f := h.sched.Profiles[h.preemptor.Spec.SchedulerName]
	if f == nil {
		return ""
	}
	for _, pl := range f.PreEnqueuePlugins() {
		if s := pl.PreEnqueue(context.Background(), h.preemptor); !s.IsSuccess() {
			return "gate " + h.preemptor.Namespace + "/" + h.preemptor.Name + " " + pl.Name() + ": " + s.Message()
		}
	}
	return ""
}

// usesVolumeClaims says whether VolumeBinding's PreBind may wait for the pod's volumes.
func usesVolumeClaims(pod *v1.Pod) bool {
	for _, v := range pod.Spec.Volumes {
		if v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			return true
		}
	}
	return false
}

// newPodResult is a pod's empty report.
func newPodResult(pod *v1.Pod) Pod {
	return Pod{
		Pod:       pod.Namespace + "/" + pod.Name,
		Filter:    map[string]Status{},
		Scores:    map[string]map[string]int64{},
		BestNodes: []string{},
		Victims:   []string{},
	}
}

// setPlaced reports the node an attempt chose, with each node's Filter verdict and the scores.
func setPlaced(out *Pod, host string, bestNodes []string, filter map[string]*fwk.Status, scores []fwk.NodePluginScores) {
	out.Outcome, out.Node, out.BestNodes = "Scheduled", host, bestNodes
	for node, s := range filter {
		out.Filter[node] = toStatus(s)
	}
	if len(scores) > 1 {
		for _, ns := range scores {
			row := map[string]int64{"total": ns.TotalScore}
			for _, ps := range ns.Scores {
				row[ps.Name] = ps.Score
			}
			out.Scores[ns.Name] = row
		}
	}
}

// setFailed reports how an attempt failed: its message, the Filter verdicts of a FitError, the
// PreFilter verdict and the node preemption nominated.
func setFailed(out *Pod, failure, preFilter *fwk.Status, nominating *fwk.NominatingInfo) {
	out.Outcome = "Error"
	if failure.IsRejected() {
		out.Outcome = "Unschedulable"
	}
	out.Message = failure.Message()
	var fitErr *framework.FitError
	if errors.As(failure.AsError(), &fitErr) {
		fitErr.Diagnosis.NodeToStatus.ForEachExplicitNode(func(node string, s *fwk.Status) {
			out.Filter[node] = toStatus(s)
		})
	}
	if preFilter != nil {
		s := toStatus(preFilter)
		out.PreFilter = &s
	}
	if nominating != nil && nominating.Mode() == fwk.ModeOverride {
		out.NominatedNode = nominating.NominatedNodeName
	}
}

func toStatus(s *fwk.Status) Status {
	reasons := s.Reasons()
	if reasons == nil {
		reasons = []string{}
	}
	return Status{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: reasons}
}

// waitForActive waits until the pod's creation has reached the scheduling queue's activeQ.
func (h *harness) waitForActive(ctx context.Context, pod *v1.Pod) (*v1.Pod, error) {
	var found *v1.Pod
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		pods, summary := h.sched.SchedulingQueue.PendingPods()
		var active int
		if _, err := fmt.Sscanf(summary, "activeQ:%d;", &active); err != nil {
			return false, fmt.Errorf("unexpected queue summary %q", summary)
		}
		for i, p := range pods {
			if p.Namespace == pod.Namespace && p.Name == pod.Name {
				if i >= active {
					return false, fmt.Errorf("the pod entered the queue but not activeQ (%s): gated?", summary)
				}
				found = p
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the pod in activeQ: %w", err)
	}
	return found, nil
}

// waitForBinding waits until the binding cycle has bound the pod and the cache has seen it, until
// the attempt failed after its node was chosen, or, for a pod with volume claims, until the
// binding cycle waits in PreBind for volumes to be bound: no PV controller or provisioner runs
// here, so that wait would not end. The pod stays assumed, which is all the next pods see either
// way. A pod group's member is waited for until it is bound or its binding cycle failed. Other
// pods are waited for until they are bound: DynamicResources' PreBind writes the
// claims' allocations, which the report and the next pods need.
func (h *harness) waitForBinding(ctx context.Context, pod *v1.Pod) error {
	f := h.sched.Profiles[pod.Spec.SchedulerName]
	lister := f.SharedInformerFactory().Core().V1().Pods().Lister().Pods(pod.Namespace)
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		if h.afterSelection.Load() != nil || (h.group != nil && h.group.memberFailed(pod)) || (f.GetPodInPreBind(pod.UID) != nil && usesVolumeClaims(pod)) {
			return true, nil
		}
		p, err := lister.Get(pod.Name)
		if err != nil || p.Spec.NodeName == "" {
			return false, nil
		}
		assumed, err := h.sched.Cache.IsAssumedPod(p)
		return err == nil && !assumed, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the binding: %w", err)
	}
	return nil
}

// settle waits until every write to the API server has reached the scheduler: the pod informer
// holds what the API holds, the cache holds every bound pod as bound, and the scheduling queue
// (with its nominator) holds the latest version of every pod still pending. The next pod is only
// created then, so it sees the previous attempt's whole effect, nominations included.
func (h *harness) settle(ctx context.Context) error {
	f := h.anyProfile()
	podLister := f.SharedInformerFactory().Core().V1().Pods().Lister()
	var why string
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := h.cluster.Client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		cached, err := podLister.List(labels.Everything())
		if err != nil {
			return false, err
		}
		if len(cached) != len(list.Items) {
			why = fmt.Sprintf("the informer holds %d pods, the API %d", len(cached), len(list.Items))
			return false, nil
		}
		for i := range list.Items {
			p := &list.Items[i]
			c, err := podLister.Pods(p.Namespace).Get(p.Name)
			if err != nil || !equality.Semantic.DeepEqual(c.Spec, p.Spec) || !equality.Semantic.DeepEqual(c.Status, p.Status) {
				why = fmt.Sprintf("the informer is behind on pod %s/%s", p.Namespace, p.Name)
				return false, nil
			}
			// A status write still queued or in flight in the API dispatcher (the clearing of a
			// failed pod's own nomination): syncing the cached pod, as the scheduler's informer
			// handler does, shows what the write will change.
			if h.sched.APIDispatcher != nil {
				synced, err := h.sched.APIDispatcher.SyncObject(c)
				if sp, ok := synced.(*v1.Pod); err == nil && ok && !equality.Semantic.DeepEqual(sp.Status, c.Status) {
					why = fmt.Sprintf("a status write for pod %s/%s is pending", p.Namespace, p.Name)
					return false, nil
				}
			}
			if f.GetPodInPreBind(p.UID) != nil {
				continue
			}
			if p.Spec.NodeName != "" {
				if assumed, err := h.sched.Cache.IsAssumedPod(p); err != nil || assumed {
					why = fmt.Sprintf("the cache has not confirmed pod %s/%s", p.Namespace, p.Name)
					return false, nil
				}
				if _, err := h.sched.Cache.GetPod(p); err != nil {
					why = fmt.Sprintf("the cache lacks pod %s/%s", p.Namespace, p.Name)
					return false, nil
				}
				continue
			}
			if p.Spec.SchedulerName == "" || h.sched.Profiles[p.Spec.SchedulerName] == nil {
				continue
			}
			q, ok := h.sched.SchedulingQueue.GetPod(p.Name, p.Namespace, p.Spec.SchedulingGroup)
			if !ok || !equality.Semantic.DeepEqual(q.Pod.Status, p.Status) {
				why = fmt.Sprintf("the queue is behind on pod %s/%s", p.Namespace, p.Name)
				return false, nil
			}
		}
		if behind, err := h.claimsBehind(ctx); err != nil || behind != "" {
			why = behind
			return false, err
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the scheduler to catch up (%s): %w", why, err)
	}
	return nil
}

func (h *harness) anyProfile() framework.Framework {
	for _, f := range h.sched.Profiles {
		return f
	}
	return nil
}

// waitForPreemption waits until the preemption goroutine has deleted every victim and the cache
// no longer holds them; it returns the victims.
func (h *harness) waitForPreemption(ctx context.Context, preemptor *v1.Pod) ([]string, error) {
	f := h.sched.Profiles[preemptor.Spec.SchedulerName]
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(ctx context.Context) (bool, error) {
		for _, pl := range f.PreEnqueuePlugins() {
			if !pl.PreEnqueue(ctx, preemptor).IsSuccess() && pl.Name() == "DefaultPreemption" {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the preemption: %w", err)
	}
	victims := h.cluster.DeletedPods()
	if victims == nil {
		// A victim whose binding was cancelled in PreBind is not deleted.
		victims = []string{}
	}
	sort.Strings(victims)
	podLister := f.SharedInformerFactory().Core().V1().Pods().Lister()
	err = wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		for _, v := range victims {
			ns, name, _ := strings.Cut(v, "/")
			if _, err := podLister.Pods(ns).Get(name); !apierrors.IsNotFound(err) {
				return false, nil
			}
		}
		for _, ni := range h.sched.Cache.Dump().Nodes {
			for _, p := range ni.GetPods() {
				for _, v := range victims {
					if p.GetPod().Namespace+"/"+p.GetPod().Name == v {
						return false, nil
					}
				}
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the victims to go: %w", err)
	}
	return victims, nil
}
