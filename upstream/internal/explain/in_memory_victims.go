package explain

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
)

// inMemoryVictims are the victims preemption took without deleting them (a pod waiting at
// Permit, or in PreBind, whose binding cycle it stopped), seen when preemption records its
// "Preempted" event for them, and which of them went back to the queue since.
type inMemoryVictims struct {
	mu       sync.Mutex
	victims  []string
	requeued map[string]bool
}

func (v *inMemoryVictims) add(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.victims = append(v.victims, key)
}

func (v *inMemoryVictims) requeue(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.requeued[key] = true
}

// take returns the victims seen since the last call, and forgets them and the requeues.
func (v *inMemoryVictims) take() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.victims
	v.victims = nil
	v.requeued = map[string]bool{}
	return out
}

func (v *inMemoryVictims) allRequeued() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, k := range v.victims {
		if !v.requeued[k] {
			return false
		}
	}
	return true
}

// waitForRequeues waits until every victim preempted in memory by the attempt has gone back to
// the queue (its binding cycle's failure handler ran), and returns them sorted.
func (h *harness) waitForRequeues(ctx context.Context) ([]string, error) {
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
		return h.inMemory.allRequeued(), nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the victims preempted in memory to be requeued: %w", err)
	}
	victims := h.inMemory.take()
	sort.Strings(victims)
	if victims == nil {
		victims = []string{}
	}
	return victims, nil
}

// preemptionRecorder is a profile's event recorder that also tells the harness, synchronously,
// which victims preemption took in memory: upstream's executor records "Preempted" with a note
// ending "(in kube-scheduler memory)." for them before the preemption is over.
type preemptionRecorder struct {
	events.EventRecorderLogger
	victims *inMemoryVictims
}

func (r preemptionRecorder) WithLogger(logger klog.Logger) events.EventRecorderLogger {
	return preemptionRecorder{EventRecorderLogger: r.EventRecorderLogger.WithLogger(logger), victims: r.victims}
}

func (r preemptionRecorder) Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	if p, ok := regarding.(*v1.Pod); ok && reason == "Preempted" && strings.HasSuffix(note, "(in kube-scheduler memory).") {
		r.victims.add(p.Namespace + "/" + p.Name)
	}
	r.EventRecorderLogger.Eventf(regarding, related, eventtype, reason, action, note, args...)
}
