// Discovery's resource order against the pinned kube-apiserver (v1.37.2): a built-in group/version
// lists its resources by name, subresources included (installer.go registers the storage paths
// sorted); a custom resource keeps apiextensions-apiserver's order and verbs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiResourceList, resourcesFor } from './resources.js';

/**
 * What the pinned kube-apiserver answered (GET on each path, GenericWorkload on, the scheduling.k8s.io
 * v1beta1 runtime config, PodGroup.scheduling.x-k8s.io's CRD installed), recorded with test/e2e's
 * ControlPlane. Ours serves a subset: the comparison keeps the real order of the names we serve.
 */
const pinned: { group: string; version: string; names: string[] }[] = [
  { group: '', version: 'v1', names: ['bindings', 'componentstatuses', 'configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'namespaces/finalize', 'namespaces/status', 'nodes', 'nodes/proxy', 'nodes/status', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'persistentvolumes', 'persistentvolumes/status', 'pods', 'pods/attach', 'pods/binding', 'pods/ephemeralcontainers', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/proxy', 'pods/resize', 'pods/status', 'podtemplates', 'replicationcontrollers', 'replicationcontrollers/scale', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status', 'secrets', 'serviceaccounts', 'serviceaccounts/token', 'services', 'services/proxy', 'services/status'] },
  { group: 'apps', version: 'v1', names: ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'] },
  { group: 'scheduling.k8s.io', version: 'v1beta1', names: ['podgroups', 'podgroups/status', 'workloads'] },
  { group: 'resource.k8s.io', version: 'v1', names: ['deviceclasses', 'devicetaintrules', 'devicetaintrules/status', 'resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates', 'resourceslices'] },
  { group: 'storage.k8s.io', version: 'v1', names: ['csidrivers', 'csinodes', 'csinodes/status', 'csistoragecapacities', 'storageclasses', 'volumeattachments', 'volumeattachments/status', 'volumeattributesclasses'] },
  { group: 'policy', version: 'v1', names: ['poddisruptionbudgets', 'poddisruptionbudgets/status'] },
  { group: 'batch', version: 'v1', names: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'] },
  { group: 'apiextensions.k8s.io', version: 'v1', names: ['customresourcedefinitions', 'customresourcedefinitions/status'] },
  { group: 'scheduling.x-k8s.io', version: 'v1alpha1', names: ['podgroups', 'podgroups/status'] },
];

type Entry = { name: string; verbs: string[] };
const served = resourcesFor((gate) => gate !== 'CompositePodGroup');
const listOf = (group: string, version: string): Entry[] => (apiResourceList(group, version, served)?.resources ?? []) as Entry[];

describe('discovery lists resources in kube-apiserver\'s order', () => {
  for (const c of pinned) {
    it(`${c.group || 'core'}/${c.version}`, () => {
      const ours = listOf(c.group, c.version).map((r) => r.name);
      assert.ok(ours.length > 0);
      const unknown = ours.filter((n) => !c.names.includes(n));
      assert.deepEqual(unknown, [], 'every name we list is one kube-apiserver lists');
      assert.deepEqual(ours, c.names.filter((n) => ours.includes(n)));
    });
  }

  it('a custom resource has apiextensions-apiserver\'s verbs, in its order; a built-in one the sorted verbs', () => {
    assert.deepEqual(listOf('scheduling.x-k8s.io', 'v1alpha1')[0]!.verbs, ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
    assert.deepEqual(listOf('scheduling.k8s.io', 'v1beta1')[0]!.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });
});
