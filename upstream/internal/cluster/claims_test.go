package cluster

import (
	"strings"
	"testing"
)

func TestTemplateClaimName(t *testing.T) {
	cases := []struct {
		name, namespace, pod, entry string
		wantPrefix                  string
	}{
		{name: "short names keep the controller's <pod>-<entry>- base", namespace: "default", pod: "trainer", entry: "gpus", wantPrefix: "trainer-gpus-"},
		{name: "long names are cut in proportion, with no hyphen before the suffix", namespace: "default",
			pod: strings.Repeat("p", 60), entry: strings.Repeat("c", 20), wantPrefix: strings.Repeat("p", 41) + "-" + strings.Repeat("c", 13)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TemplateClaimName(c.namespace, c.pod, c.entry)
			if !strings.HasPrefix(got, c.wantPrefix) || len(got) != len(c.wantPrefix)+5 {
				t.Fatalf("got %q, want %q and five characters", got, c.wantPrefix)
			}
			for _, r := range got[len(c.wantPrefix):] {
				if !strings.ContainsRune(claimNameAlphabet, r) {
					t.Errorf("suffix character %q is not one the API server generates", r)
				}
			}
			if again := TemplateClaimName(c.namespace, c.pod, c.entry); again != got {
				t.Errorf("second call gave %q, first %q", again, got)
			}
		})
	}
	if TemplateClaimName("default", "trainer", "gpus") != "trainer-gpus-l2fr2" {
		t.Errorf("the scheme changed: the embedded controller and recorded scenarios depend on it")
	}
	if TemplateClaimName("team-a", "trainer", "gpus") == TemplateClaimName("default", "trainer", "gpus") {
		t.Errorf("the namespace does not change the suffix")
	}
}
