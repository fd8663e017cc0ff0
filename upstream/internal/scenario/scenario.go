// Package scenario reads the project's scenario files (scenarios/README.md in the shared docs):
// `{config?, nodes, pods, pending?, objects?}`, a Kubernetes List, or a multi-document dump.
package scenario

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

// Scenario holds the typed objects of one scenario file.
type Scenario struct {
	// Config is the KubeSchedulerConfiguration as JSON, or nil for upstream's defaults.
	Config []byte
	Nodes  []*v1.Node
	// Pods are the existing load (spec.nodeName set).
	Pods []*v1.Pod
	// Pending pods are scheduled in this order.
	Pending []*v1.Pod
	// Objects are every other kind the scheduler reads (Namespaces, PriorityClasses, storage, ...).
	Objects []runtime.Object
	// Skipped names the objects of kinds the harness does not load.
	Skipped []string
}

// defaultAPIVersion is the group/version assumed for an object written without apiVersion.
var defaultAPIVersion = map[string]string{
	"Node": "v1", "Pod": "v1", "Namespace": "v1", "PersistentVolume": "v1", "PersistentVolumeClaim": "v1",
	"Service": "v1", "ReplicationController": "v1",
	"StorageClass": "storage.k8s.io/v1", "CSINode": "storage.k8s.io/v1", "CSIDriver": "storage.k8s.io/v1",
	"CSIStorageCapacity": "storage.k8s.io/v1", "VolumeAttachment": "storage.k8s.io/v1",
	"PodDisruptionBudget": "policy/v1", "PriorityClass": "scheduling.k8s.io/v1",
	"ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "Deployment": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1",
	"DeviceClass": "resource.k8s.io/v1", "ResourceSlice": "resource.k8s.io/v1", "ResourceClaim": "resource.k8s.io/v1",
	"ResourceClaimTemplate": "resource.k8s.io/v1", "DeviceTaintRule": "resource.k8s.io/v1",
}

// Load reads a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	docs, err := splitDocuments(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := &Scenario{}
	if len(docs) == 1 && isScenarioShape(docs[0]) {
		if err := sc.loadShape(docs[0]); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return sc, nil
	}
	var pending []*v1.Pod
	for _, d := range docs {
		if err := sc.addListed(d, &pending); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	// A dump lists unbound pods in any order: they are scheduled in creation order.
	sort.SliceStable(pending, func(i, j int) bool {
		return pending[i].CreationTimestamp.Before(&pending[j].CreationTimestamp)
	})
	sc.Pending = pending
	return sc, nil
}

func splitDocuments(data []byte) ([]map[string]any, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []map[string]any
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		var v map[string]any
		if err := yaml.Unmarshal(doc, &v); err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
}

func isScenarioShape(v map[string]any) bool {
	if _, ok := v["kind"]; ok {
		return false
	}
	for _, k := range []string{"nodes", "pods", "pending", "steps"} {
		if _, ok := v[k]; ok {
			return true
		}
	}
	return false
}

func (sc *Scenario) loadShape(v map[string]any) error {
	if steps, ok := v["steps"].([]any); ok && len(steps) > 0 {
		return errors.New("steps: timelines are not supported by the differential harness")
	}
	if c, ok := v["config"]; ok && c != nil {
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		sc.Config = data
	}
	for _, section := range []string{"nodes", "pods", "pending", "objects"} {
		items, _ := v[section].([]any)
		for i, item := range items {
			m, ok := item.(map[string]any)
			if !ok {
				return fmt.Errorf("%s[%d]: must be an object", section, i)
			}
			kind := map[string]string{"nodes": "Node", "pods": "Pod", "pending": "Pod"}[section]
			obj, err := decode(m, kind)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", section, i, err)
			}
			if obj == nil {
				sc.Skipped = append(sc.Skipped, fmt.Sprintf("%s[%d] (%v)", section, i, m["kind"]))
				continue
			}
			switch section {
			case "nodes":
				sc.Nodes = append(sc.Nodes, obj.(*v1.Node))
			case "pods":
				sc.Pods = append(sc.Pods, obj.(*v1.Pod))
			case "pending":
				sc.Pending = append(sc.Pending, obj.(*v1.Pod))
			default:
				sc.Objects = append(sc.Objects, obj)
			}
		}
	}
	return nil
}

func (sc *Scenario) addListed(m map[string]any, pending *[]*v1.Pod) error {
	switch m["kind"] {
	case "List":
		items, _ := m["items"].([]any)
		for _, item := range items {
			if im, ok := item.(map[string]any); ok {
				if err := sc.addListed(im, pending); err != nil {
					return err
				}
			}
		}
		return nil
	case "KubeSchedulerConfiguration":
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		sc.Config = data
		return nil
	}
	obj, err := decode(m, "")
	if err != nil {
		return err
	}
	switch o := obj.(type) {
	case nil:
		sc.Skipped = append(sc.Skipped, fmt.Sprint(m["kind"]))
	case *v1.Node:
		sc.Nodes = append(sc.Nodes, o)
	case *v1.Pod:
		if o.Spec.NodeName != "" {
			sc.Pods = append(sc.Pods, o)
		} else {
			*pending = append(*pending, o)
		}
	default:
		sc.Objects = append(sc.Objects, obj)
	}
	return nil
}

// decode turns one object into its typed form; nil for a kind the harness does not know.
func decode(m map[string]any, defaultKind string) (runtime.Object, error) {
	if _, ok := m["kind"]; !ok && defaultKind != "" {
		m["kind"] = defaultKind
	}
	kind, _ := m["kind"].(string)
	if _, ok := m["apiVersion"]; !ok {
		gv, known := defaultAPIVersion[kind]
		if !known {
			return nil, nil
		}
		m["apiVersion"] = gv
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if runtime.IsNotRegisteredError(err) {
		return nil, nil
	}
	return obj, err
}
