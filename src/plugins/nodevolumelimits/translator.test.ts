// In-tree to CSI translation as csi-translation-lib's tests describe it, and isCSIMigrationOn.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSINode, KubeObject, PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { CSILimits } from './csi.js';
import {
  AzureFileInTreePluginName,
  GCEPDDriverName,
  MigratedPluginsAnnotationKey,
  PortworxDriverName,
  PortworxVolumePluginName,
  isCSIMigrationOn,
  kubernetesVolumeIDToEBSVolumeID,
  pluginForInlineVolume,
  pluginForPV,
  type Volume,
} from './translator.js';

function csiNode(annotation?: string, drivers: { name: string; count: number }[] = []): CSINode {
  return {
    kind: 'CSINode',
    metadata: { name: 'n1', ...(annotation !== undefined ? { annotations: { [MigratedPluginsAnnotationKey]: annotation } } : {}) },
    spec: { drivers: drivers.map((d) => ({ name: d.name, nodeID: 'n1', allocatable: { count: d.count } })) },
  };
}

describe('EBS volume ids', () => {
  const cases: [string, string | null][] = [
    ['vol-123', 'vol-123'],
    ['aws://us-east-1a/vol-123', 'vol-123'],
    ['aws:///vol-123', 'vol-123'],
    ['anything-bare', 'anything-bare'],
    ['aws://us-east-1a/not-a-volume', null],
    ['aws://us-east-1a/vol-1/extra', null],
  ];
  for (const [id, want] of cases) {
    it(`${id} -> ${want ?? 'error'}`, () => {
      const got = kubernetesVolumeIDToEBSVolumeID(id);
      if (want === null) assert.ok(got instanceof Error);
      else assert.equal(got, want);
    });
  }
});

describe('GCE PD handles', () => {
  const gcePV = (labels: Record<string, string>): PersistentVolume => ({ kind: 'PersistentVolume', metadata: { name: 'pv', labels }, spec: { gcePersistentDisk: { pdName: 'disk' } } });
  const handle = (pv: PersistentVolume) => pluginForPV(pv)!.pvVolumeHandle!(pv);
  it('a zonal PV names its zone', () => assert.equal(handle(gcePV({ 'topology.kubernetes.io/zone': 'us-central1-a' })), 'projects/UNSPECIFIED/zones/us-central1-a/disks/disk'));
  it('the beta zone label wins', () =>
    assert.equal(handle(gcePV({ 'failure-domain.beta.kubernetes.io/zone': 'us-east1-b', 'topology.kubernetes.io/zone': 'us-central1-a' })), 'projects/UNSPECIFIED/zones/us-east1-b/disks/disk'));
  it('a regional PV names its region', () => assert.equal(handle(gcePV({ 'topology.kubernetes.io/zone': 'us-central1-a__us-central1-c' })), 'projects/UNSPECIFIED/regions/us-central1/disks/disk'));
  it('zones of two regions cannot be translated', () => assert.ok(handle(gcePV({ 'topology.kubernetes.io/zone': 'us-central1-a__us-east1-b' })) instanceof Error));
  it('a PV without zone is UNSPECIFIED', () => assert.equal(handle(gcePV({})), 'projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk'));
  it('an inline disk is UNSPECIFIED', () => {
    const vol: Volume = { name: 'v', gcePersistentDisk: { pdName: 'disk' } };
    assert.equal(pluginForInlineVolume(vol)!.inlineVolumeHandle!(vol), 'projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk');
  });
});

describe('in-tree plugins', () => {
  const cases: [string, Volume, string][] = [
    ['aws ebs', { name: 'v', awsElasticBlockStore: { volumeID: 'vol-1' } }, 'ebs.csi.aws.com'],
    ['gce pd', { name: 'v', gcePersistentDisk: { pdName: 'd' } }, GCEPDDriverName],
    ['azure disk', { name: 'v', azureDisk: { diskName: 'd', diskURI: 'uri' } }, 'disk.csi.azure.com'],
    ['azure file', { name: 'v', azureFile: { secretName: 's', shareName: 'sh' } }, 'file.csi.azure.com'],
    ['cinder', { name: 'v', cinder: { volumeID: 'c' } }, 'cinder.csi.openstack.org'],
    ['vsphere', { name: 'v', vsphereVolume: { volumePath: 'p' } }, 'csi.vsphere.vmware.com'],
    ['portworx', { name: 'v', portworxVolume: { volumeID: 'px' } }, PortworxDriverName],
  ];
  for (const [name, vol, driver] of cases) it(`${name} migrates to ${driver}`, () => assert.equal(pluginForInlineVolume(vol)?.csiDriverName, driver));
  it('host paths, config maps and claims are not migratable', () => {
    assert.equal(pluginForInlineVolume({ name: 'v', hostPath: { path: '/' } }), undefined);
    assert.equal(pluginForInlineVolume({ name: 'v', configMap: {} }), undefined);
    assert.equal(pluginForInlineVolume({ name: 'v', persistentVolumeClaim: { claimName: 'c' } }), undefined);
  });
});

describe('isCSIMigrationOn', () => {
  const cases: [string, CSINode | null, string, boolean][] = [
    ['no CSINode', null, 'kubernetes.io/aws-ebs', false],
    ['GA plugin without the annotation', csiNode(), 'kubernetes.io/aws-ebs', true],
    ['GCE PD', csiNode(), 'kubernetes.io/gce-pd', true],
    ['Azure Disk', csiNode(), 'kubernetes.io/azure-disk', true],
    ['Cinder', csiNode(), 'kubernetes.io/cinder', true],
    ['Portworx without the annotation', csiNode(), PortworxVolumePluginName, false],
    ['Portworx listed', csiNode(`kubernetes.io/aws-ebs,${PortworxVolumePluginName}`), PortworxVolumePluginName, true],
    ['Portworx not listed', csiNode('kubernetes.io/aws-ebs'), PortworxVolumePluginName, false],
    ['Azure File, even listed', csiNode(AzureFileInTreePluginName), AzureFileInTreePluginName, false],
    ['an empty plugin name', csiNode(), '', false],
  ];
  for (const [name, node, plugin, want] of cases) it(name, () => assert.equal(isCSIMigrationOn(node, plugin), want));
});

describe('migrated volumes in Filter', () => {
  const pxPV: PersistentVolume = { kind: 'PersistentVolume', metadata: { name: 'px-pv' }, spec: { portworxVolume: { volumeID: 'px-1' } } };
  const objects = (annotation: string | undefined): KubeObject[] => [
    pxPV,
    { kind: 'PersistentVolumeClaim', metadata: { name: 'px', namespace: 'default' }, spec: { volumeName: 'px-pv' } } as PersistentVolumeClaim,
    { kind: 'PersistentVolumeClaim', metadata: { name: 'px-unbound', namespace: 'default' }, spec: { storageClassName: 'px-sc' } } as PersistentVolumeClaim,
    { kind: 'StorageClass', metadata: { name: 'px-sc' }, provisioner: PortworxVolumePluginName } as KubeObject,
    csiNode(annotation, [{ name: PortworxDriverName, count: 1 }]),
  ];
  const run = (annotation: string | undefined, claims: string[]) => {
    const pl = new CSILimits(newTestHandle({ objects: objects(annotation) }).objects(), 'prefix');
    const pod = new PodInfo(makePod('p', { spec: { containers: [{ name: 'c' }], volumes: claims.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })) } }));
    const state = new CycleState();
    pl.preFilter(state, pod);
    return pl.filter(state, pod, new NodeInfo(makeNode('n1')));
  };
  it('Portworx PVs and unbound claims count when the node lists the plugin as migrated', () => assert.equal(run(PortworxVolumePluginName, ['px', 'px-unbound'])?.code, Code.Unschedulable));
  it('they do not count when the node does not', () => assert.equal(run(undefined, ['px', 'px-unbound']), null));
  it('one migrated Portworx volume fits a limit of one', () => assert.equal(run(PortworxVolumePluginName, ['px']), null));
});
