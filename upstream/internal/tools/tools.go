//go:build tools

// Package tools keeps the modules of the binaries `npm run upstream:build` builds from
// k8s.io/kubernetes in go.mod, so `go mod tidy` does not drop them.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
