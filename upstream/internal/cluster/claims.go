package cluster

// The resourceclaim controller's part for pods with claim templates
// (pkg/controller/resourceclaim/controller.go, handleClaim): one ResourceClaim per template entry,
// owned by the pod, and the pod's status.resourceClaimStatuses naming it. The real controller
// leaves the name's last five characters to the API server's random generator; here they come
// from a hash of the pod and the entry, so every run (and the project's embedded controller,
// which uses the same scheme) names the claim alike. test/upstream/README.md documents it.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

// claimNameAlphabet is the API server's generateName alphabet (k8s.io/apimachinery/pkg/util/rand):
// no vowels, no 0, 1 or 3.
const claimNameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxClaimNameBase leaves room for the five generated characters in a 63-character name.
const maxClaimNameBase = 57

// hashSuffix is five characters of claimNameAlphabet chosen by sha256(key).
func hashSuffix(key string) string {
	sum := sha256.Sum256([]byte(key))
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = claimNameAlphabet[int(sum[i])%len(claimNameAlphabet)]
	}
	return string(suffix)
}

// generateClaimName names a ResourceClaim created with only metadata.generateName (the claim
// DynamicResources makes in PreBind for extended resources backed by devices), as the API server
// would, with a suffix from hashSuffix("<namespace>/<generateName>") instead of a random one.
func generateClaimName(action clienttesting.Action) (bool, runtime.Object, error) {
	create, ok := action.(clienttesting.CreateAction)
	if !ok || action.GetSubresource() != "" {
		return false, nil, nil
	}
	if claim, ok := create.GetObject().(*resourcev1.ResourceClaim); ok && claim.Name == "" && claim.GenerateName != "" {
		claim.Name = claim.GenerateName + hashSuffix(action.GetNamespace()+"/"+claim.GenerateName)
	}
	return false, nil, nil
}

// TemplateClaimName is the name of the claim made for the pod's entry: the controller's
// generateName (`<pod>-<entry>-`, both parts cut in proportion when longer than 57 characters)
// followed by five characters chosen by sha256("<namespace>/<pod>/<entry>"): byte i modulo 27
// picks character i of claimNameAlphabet.
func TemplateClaimName(namespace, pod, entry string) string {
	base := pod + "-" + entry + "-"
	if len(base) > maxClaimNameBase {
		base = pod[:len(pod)*maxClaimNameBase/len(base)] + "-" + entry[:len(entry)*maxClaimNameBase/len(base)]
	}
	return base + hashSuffix(namespace+"/"+pod+"/"+entry)
}

// CreateTemplateClaims creates, as the resourceclaim controller would, the claim of every
// template entry of the pod that its status does not name yet, and records them in the pod's
// status.resourceClaimStatuses (the pod is not created yet: Create keeps them).
func (c *Cluster) CreateTemplateClaims(ctx context.Context, pod *v1.Pod) error {
	named := map[string]bool{}
	for _, s := range pod.Status.ResourceClaimStatuses {
		named[s.Name] = true
	}
	uid := pod.UID
	if uid == "" {
		uid = uidFor(pod, pod)
	}
	controller := true
	for _, entry := range pod.Spec.ResourceClaims {
		if entry.ResourceClaimTemplateName == nil || named[entry.Name] {
			continue
		}
		obj, err := c.tracker.Get(resourcev1.SchemeGroupVersion.WithResource("resourceclaimtemplates"), pod.Namespace, *entry.ResourceClaimTemplateName, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("claim %s: resource claim template %q: %w", entry.Name, *entry.ResourceClaimTemplateName, err)
		}
		template := obj.(*resourcev1.ResourceClaimTemplate)
		annotations := maps.Clone(template.Spec.ObjectMeta.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[resourcev1.PodResourceClaimAnnotation] = entry.Name
		name := TemplateClaimName(pod.Namespace, pod.Name, entry.Name)
		claim := &resourcev1.ResourceClaim{
			ObjectMeta: metav1.ObjectMeta{
				Name:            name,
				Namespace:       pod.Namespace,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: uid, Controller: &controller}},
				Annotations:     annotations,
				Labels:          template.Spec.ObjectMeta.Labels,
			},
			Spec: *template.Spec.Spec.DeepCopy(),
		}
		if err := c.Create(ctx, claim); err != nil {
			return fmt.Errorf("claim %s: create ResourceClaim %s: %w", entry.Name, name, err)
		}
		pod.Status.ResourceClaimStatuses = append(pod.Status.ResourceClaimStatuses, v1.PodResourceClaimStatus{Name: entry.Name, ResourceClaimName: &name})
	}
	return nil
}

// PodClaimName is the ResourceClaim an entry of the pod uses: the one it names, or the one made
// for its template ("" while there is none).
func PodClaimName(pod *v1.Pod, entry v1.PodResourceClaim) string {
	if entry.ResourceClaimName != nil {
		return *entry.ResourceClaimName
	}
	for _, s := range pod.Status.ResourceClaimStatuses {
		if s.Name == entry.Name && s.ResourceClaimName != nil {
			return *s.ResourceClaimName
		}
	}
	return ""
}
