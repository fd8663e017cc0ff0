// CustomResourceDefinitions (apiextensions.k8s.io/v1): the custom resources this project knows and
// serves once their CRD is installed, as kube-apiserver's apiextensions server does
// (staging/src/k8s.io/apiextensions-apiserver: the established and names controllers fill status,
// deleting a CRD deletes its custom resources).
import { groupOf, kindInfo, kinds, kindKey } from './kinds.js';
import type { KubeObject } from './types.js';

export const crdKind = 'CustomResourceDefinition';

interface CrdNames {
  kind: string;
  listKind?: string;
  plural: string;
  singular?: string;
  shortNames?: string[];
}

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  subresources?: Record<string, unknown>;
  schema?: Record<string, unknown>;
}

export interface CustomResourceDefinition extends KubeObject {
  spec: { group: string; names: CrdNames; scope: string; versions: CrdVersion[] };
  status?: {
    conditions?: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[];
    acceptedNames?: CrdNames;
    storedVersions?: string[];
  };
}

/** The CRD name a custom resource kind of api/kinds.ts is served under ("podgroups.scheduling.x-k8s.io"). */
export function crdNameOf(key: string): string {
  const k = kindInfo(key);
  return `${k.plural}.${groupOf(k.apiVersion)}`;
}

/** The custom resource kinds of the table, by the name of the CRD that serves them. */
const customKindByCrdName: ReadonlyMap<string, string> = new Map(kinds.filter((k) => 'crd' in k).map((k) => [crdNameOf(kindKey(k)), kindKey(k)]));

/** The table's custom resource kind a CRD defines, if it is one this project serves. */
export function customKindOf(crdName: string): string | undefined {
  return customKindByCrdName.get(crdName);
}

/** Whether `crd` serves `version` (a served version of the spec). */
export function servesVersion(crd: CustomResourceDefinition | undefined, version: string): boolean {
  return crd?.spec?.versions?.some((v) => v.name === version && v.served) === true;
}

/**
 * The status the apiextensions controllers give a CRD whose names are free: NamesAccepted and
 * Established, the accepted names, and the storage version as stored.
 */
export function establishedStatus(crd: CustomResourceDefinition, now: string): NonNullable<CustomResourceDefinition['status']> {
  return {
    conditions: [
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
    ],
    acceptedNames: structuredClone(crd.spec.names),
    storedVersions: crd.spec.versions.filter((v) => v.storage).map((v) => v.name),
  };
}

const podGroupStatusFields = ['phase', 'occupiedBy', 'scheduled', 'running', 'succeeded', 'failed'];
const int32 = (description?: string) => ({ ...(description ? { description } : {}), type: 'integer', format: 'int32' });

/**
 * scheduler-plugins' PodGroup CRD as deploy/charts/kube-scheduler-ts/crds holds it (a test keeps
 * the two equal): what scenarios and imports holding such PodGroups, or a profile running
 * Coscheduling, imply is installed.
 */
export const podGroupCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: crdKind, metadata: { name: 'podgroups.scheduling.x-k8s.io' },
  spec: {
    group: 'scheduling.x-k8s.io',
    names: { kind: 'PodGroup', listKind: 'PodGroupList', plural: 'podgroups', singular: 'podgroup', shortNames: ['pg', 'pgs'] },
    scope: 'Namespaced',
    versions: [{
      name: 'v1alpha1', served: true, storage: true, subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' },
            spec: {
              type: 'object',
              properties: {
                minMember: { ...int32('Pods that must be schedulable together before any of them binds.'), minimum: 1 },
                minResources: {
                  description: 'Resources the cluster must have free for the whole group.', type: 'object',
                  additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
                },
                scheduleTimeoutSeconds: int32('How long placed members wait at Permit for the rest (overrides permitWaitingTimeSeconds).'),
              },
            },
            status: {
              type: 'object',
              properties: {
                ...Object.fromEntries(podGroupStatusFields.map((f) => [f, f === 'phase' || f === 'occupiedBy' ? { type: 'string' } : int32()])),
                scheduleStartTime: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
    }],
  },
};

/** The CRDs of the custom resource kinds this project knows, by kind key. */
export const knownCrds: ReadonlyMap<string, CustomResourceDefinition> = new Map([['PodGroup.scheduling.x-k8s.io', podGroupCrd]]);
