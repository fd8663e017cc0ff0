package explain

// Resource claims (DRA) in the harness: the claims of a pending pod's template entries are made
// before the pod (as the resourceclaim controller would have by the time the scheduler sees it),
// and each attempt reports the devices allocated to every claim of the pod, as written by the
// DynamicResources plugin's PreBind.

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"kube-scheduler-ts/upstream/internal/cluster"
)

// Claim is the outcome for one entry of the pod's spec.resourceClaims.
type Claim struct {
	// Name is the entry's name in the pod.
	Name string `json:"name"`
	// Claim is the ResourceClaim the entry uses ("" when there is none).
	Claim string `json:"claim"`
	// Devices are the claim's allocation after the attempt, in the allocation's order; empty
	// while the claim is not allocated.
	Devices []Device `json:"devices"`
}

// Device is one entry of a claim's status.allocation.devices.results.
type Device struct {
	Request     string `json:"request"`
	Driver      string `json:"driver"`
	Pool        string `json:"pool"`
	Device      string `json:"device"`
	AdminAccess bool   `json:"adminAccess,omitempty"`
}

// createTemplateClaims makes the claims of the pod's template entries and waits until the
// scheduler's claim cache holds them, so PreEnqueue lets the pod into activeQ at once.
func (h *harness) createTemplateClaims(ctx context.Context, pod *v1.Pod) error {
	if err := h.cluster.CreateTemplateClaims(ctx, pod); err != nil {
		return err
	}
	claims := h.anyProfile().SharedDRAManager().ResourceClaims()
	for _, entry := range pod.Spec.ResourceClaims {
		name := cluster.PodClaimName(pod, entry)
		if name == "" || entry.ResourceClaimTemplateName == nil {
			continue
		}
		err := wait.PollUntilContextTimeout(ctx, time.Millisecond, settleTimeout, true, func(context.Context) (bool, error) {
			_, err := claims.Get(pod.Namespace, name)
			return err == nil, nil
		})
		if err != nil {
			return fmt.Errorf("waiting for the scheduler to see claim %s: %w", name, err)
		}
	}
	return nil
}

// claimsBehind says which claim the scheduler's claim cache holds in an older version than the
// API ("" when none).
func (h *harness) claimsBehind(ctx context.Context) (string, error) {
	list, err := h.cluster.Client.ResourceV1().ResourceClaims(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	claims := h.anyProfile().SharedDRAManager().ResourceClaims()
	for i := range list.Items {
		c := &list.Items[i]
		cached, err := claims.Get(c.Namespace, c.Name)
		if err != nil || cached.ResourceVersion != c.ResourceVersion {
			return fmt.Sprintf("the claim cache is behind on %s/%s", c.Namespace, c.Name), nil
		}
	}
	return "", nil
}

// withClaims waits for the attempt's writes to settle and adds the pod's claims, and the devices
// of its extended resources backed by devices, to its report.
func (h *harness) withClaims(ctx context.Context, out Pod, pod *v1.Pod) (Pod, error) {
	if err := h.settle(ctx); err != nil {
		return out, err
	}
	for _, entry := range pod.Spec.ResourceClaims {
		c := Claim{Name: entry.Name, Claim: cluster.PodClaimName(pod, entry), Devices: []Device{}}
		if c.Claim != "" {
			c.Devices = h.allocatedDevices(ctx, pod.Namespace, c.Claim)
		}
		out.Claims = append(out.Claims, c)
	}
	latest, err := h.cluster.Client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		return out, err
	}
	if s := latest.Status.ExtendedResourceClaimStatus; s != nil && s.ResourceClaimName != "" {
		out.ExtendedResourceDevices = h.allocatedDevices(ctx, pod.Namespace, s.ResourceClaimName)
	}
	return out, nil
}

// allocatedDevices lists the claim's status.allocation.devices.results (none while unallocated).
func (h *harness) allocatedDevices(ctx context.Context, namespace, name string) []Device {
	devices := []Device{}
	claim, err := h.cluster.Client.ResourceV1().ResourceClaims(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil || claim.Status.Allocation == nil {
		return devices
	}
	for _, r := range claim.Status.Allocation.Devices.Results {
		devices = append(devices, Device{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device, AdminAccess: r.AdminAccess != nil && *r.AdminAccess})
	}
	return devices
}
