package cluster

import (
	"context"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// An update written from a stale copy meets a conflict, as on kube-apiserver; one from the
// stored version, or with no resourceVersion at all, goes through. Status updates alike.
func TestUpdateChecksResourceVersion(t *testing.T) {
	ctx := context.Background()
	c, err := New(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims := c.Client.ResourceV1().ResourceClaims("default")
	if err := c.Create(ctx, &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "gpu", Namespace: "default"}}); err != nil {
		t.Fatal(err)
	}
	stale, err := claims.Get(ctx, "gpu", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	first := stale.DeepCopy()
	first.Finalizers = []string{resourceapi.Finalizer}
	updated, err := claims.Update(ctx, first, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update from the stored version: %v", err)
	}
	if updated.ResourceVersion == stale.ResourceVersion {
		t.Errorf("the update kept resourceVersion %s", stale.ResourceVersion)
	}

	cases := []struct {
		name     string
		update   func(*resourceapi.ResourceClaim) error
		version  string
		conflict bool
	}{
		{name: "update from a stale copy", version: stale.ResourceVersion, conflict: true,
			update: func(o *resourceapi.ResourceClaim) error {
				_, err := claims.Update(ctx, o, metav1.UpdateOptions{})
				return err
			}},
		{name: "status update from a stale copy", version: stale.ResourceVersion, conflict: true,
			update: func(o *resourceapi.ResourceClaim) error {
				_, err := claims.UpdateStatus(ctx, o, metav1.UpdateOptions{})
				return err
			}},
		{name: "unconditional update", version: "",
			update: func(o *resourceapi.ResourceClaim) error {
				_, err := claims.Update(ctx, o, metav1.UpdateOptions{})
				return err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := stale.DeepCopy()
			o.ResourceVersion = tc.version
			err := tc.update(o)
			if got := apierrors.IsConflict(err); got != tc.conflict {
				t.Fatalf("conflict: got %v (%v), want %v", got, err, tc.conflict)
			}
			if tc.conflict && err.Error() != `Operation cannot be fulfilled on resourceclaims.resource.k8s.io "gpu": the object has been modified; please apply your changes to the latest version and try again` {
				t.Errorf("message: %v", err)
			}
		})
	}
}
