package scenario

import (
	"os"
	"path/filepath"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
)

func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name                          string
		text                          string
		nodes, pods, pending, objects int
		firstPending                  string
		config                        bool
	}{
		{
			name: "scenario shape, kinds and apiVersions implied",
			text: `
config: {apiVersion: kubescheduler.config.k8s.io/v1, kind: KubeSchedulerConfiguration}
nodes: [{metadata: {name: n1}, status: {capacity: {cpu: 4}}}]
pods: [{metadata: {name: bound}, spec: {nodeName: n1, containers: []}}]
pending: [{metadata: {name: b}}, {metadata: {name: a}}]
objects: [{kind: StorageClass, metadata: {name: sc}, provisioner: x}]
`,
			nodes: 1, pods: 1, pending: 2, objects: 1, firstPending: "b", config: true,
		},
		{
			name: "a List: bound pods are load, unbound ones pending in creation order",
			text: `
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}}
- {apiVersion: v1, kind: Pod, metadata: {name: late, creationTimestamp: "2024-01-02T00:00:00Z"}, spec: {containers: []}}
- {apiVersion: v1, kind: Pod, metadata: {name: early, creationTimestamp: "2024-01-01T00:00:00Z"}, spec: {containers: []}}
- {apiVersion: v1, kind: Pod, metadata: {name: bound}, spec: {nodeName: n1, containers: []}}
`,
			nodes: 1, pods: 1, pending: 2, firstPending: "early",
		},
		{
			name: "a multi-document dump with a configuration and an unknown kind",
			text: `apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: []}
`,
			nodes: 1, pending: 1, firstPending: "p", config: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := Load(write(t, c.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Nodes) != c.nodes || len(sc.Pods) != c.pods || len(sc.Pending) != c.pending || len(sc.Objects) != c.objects {
				t.Fatalf("got %d nodes, %d pods, %d pending, %d objects", len(sc.Nodes), len(sc.Pods), len(sc.Pending), len(sc.Objects))
			}
			if sc.Pending[0].Name != c.firstPending {
				t.Errorf("first pending pod %q, want %q", sc.Pending[0].Name, c.firstPending)
			}
			if (sc.Config != nil) != c.config {
				t.Errorf("config loaded: %v, want %v", sc.Config != nil, c.config)
			}
		})
	}
}

func TestLoadTypesObjects(t *testing.T) {
	sc, err := Load(write(t, "nodes: []\nobjects: [{kind: StorageClass, metadata: {name: sc}, provisioner: x, volumeBindingMode: WaitForFirstConsumer}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	class, ok := sc.Objects[0].(*storagev1.StorageClass)
	if !ok || class.Provisioner != "x" || *class.VolumeBindingMode != storagev1.VolumeBindingWaitForFirstConsumer {
		t.Fatalf("got %#v", sc.Objects[0])
	}
}

func TestLoadTypesDRAObjects(t *testing.T) {
	sc, err := Load(write(t, `
nodes: []
objects:
- {kind: DeviceClass, metadata: {name: gpu}, spec: {selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]}}
- {kind: ResourceSlice, metadata: {name: s}, spec: {driver: gpu.example.com, nodeName: n1, pool: {name: n1, generation: 1, resourceSliceCount: 1}, devices: [{name: gpu-0}]}}
- {kind: ResourceClaimTemplate, metadata: {name: t}, spec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}}}
- {kind: ResourceClaim, metadata: {name: c}, spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Objects) != 4 || len(sc.Skipped) != 0 {
		t.Fatalf("got %d objects, skipped %v", len(sc.Objects), sc.Skipped)
	}
	if _, ok := sc.Objects[0].(*resourcev1.DeviceClass); !ok {
		t.Errorf("DeviceClass decoded as %T", sc.Objects[0])
	}
	slice, ok := sc.Objects[1].(*resourcev1.ResourceSlice)
	if !ok || slice.Spec.NodeName == nil || *slice.Spec.NodeName != "n1" || len(slice.Spec.Devices) != 1 {
		t.Errorf("ResourceSlice decoded as %#v", sc.Objects[1])
	}
	if _, ok := sc.Objects[2].(*resourcev1.ResourceClaimTemplate); !ok {
		t.Errorf("ResourceClaimTemplate decoded as %T", sc.Objects[2])
	}
	if _, ok := sc.Objects[3].(*resourcev1.ResourceClaim); !ok {
		t.Errorf("ResourceClaim decoded as %T", sc.Objects[3])
	}
}

func TestLoadRefusesTimelines(t *testing.T) {
	if _, err := Load(write(t, "nodes: []\nsteps: [{after: 1s}]\n")); err == nil {
		t.Fatal("a scenario with steps loaded")
	}
}
