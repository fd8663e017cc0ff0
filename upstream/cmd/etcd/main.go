// Command etcd is etcd's own server (go.etcd.io/etcd/server/v3/etcdmain), at the version the pinned
// kube-scheduler release's go.mod requires: the storage of the end-to-end tests' kube-apiserver.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
