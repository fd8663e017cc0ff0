// POST pods/<name>/eviction: a policy/v1 Eviction deletes the pod unless a PodDisruptionBudget
// forbids it, with kube-apiserver's answers (pkg/registry/core/pod/storage/eviction.go).
import { Selector } from '../api/labels.js';
import type { Pod } from '../api/types.js';
import type { Pdb, PdbStatus } from '../cluster/memory/controllers/disruption.js';
import { disruptionAllowedCondition } from '../cluster/memory/controllers/disruption.js';
import { isPodReady } from '../cluster/memory/controllers/status.js';
import { setCondition } from '../cluster/memory/store.js';
import type { Clock } from '../util/clock.js';
import type { ResourceRegistry, Target } from './registry.js';
import { badRequest, forbidden, invalid, notFound, ServedStatusError, successStatus, type StatusObject } from './status.js';

/** Evictions the PDB status may record before the API server refuses more (MaxDisruptedPodSize). */
const maxDisruptedPodSize = 2000;
const disruptionBudgetCause = 'DisruptionBudget';
const evictionKind = { group: 'policy', kind: 'Eviction' };
const pdbResource = { group: 'policy', name: 'poddisruptionbudget' };

interface EvictionBody {
  kind?: unknown;
  metadata?: { name?: string };
  deleteOptions?: { dryRun?: string[]; ignoreStoreReadErrorWithClusterBreakingPotential?: boolean; preconditions?: { uid?: string; resourceVersion?: string } };
}

function tooManyRequests(message: string, retryAfterSeconds: number, cause: string): ServedStatusError {
  const details: StatusObject['details'] = { causes: [{ reason: disruptionBudgetCause, message: cause }] };
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return new ServedStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'TooManyRequests', details, code: 429 });
}

const violates = "Cannot evict pod as it would violate the pod's disruption budget.";

function stillProcessing(name: string): ServedStatusError {
  return tooManyRequests(violates, 10, `The disruption budget ${name} is still being processed by the server.`);
}

function forbiddenByBudget(name: string, why: string, cause: string): ServedStatusError {
  const err = forbidden(pdbResource, name, why);
  err.status.details!.causes = [{ reason: disruptionBudgetCause, message: `The disruption budget ${name} does not allow evicting pods currently: ${cause}` }];
  return err;
}

/** Pods a budget never protects: finished, pending, or already being deleted (canIgnorePDB). */
function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

export class EvictionREST {
  constructor(private readonly registry: ResourceRegistry, private readonly clock: Clock) {}

  /** Evicts the pod `t` names; the Status of a success (201), or throws the refusal. */
  create(t: Target, body: unknown, dryRunQuery: boolean): StatusObject {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`not a Eviction object: ${typeof body}`);
    const eviction = body as EvictionBody;
    if (eviction.kind !== undefined && eviction.kind !== 'Eviction') throw badRequest(`not a Eviction object: ${String(eviction.kind)}`);
    if ((eviction.metadata?.name ?? '') !== t.name) throw badRequest('name in URL does not match name in Eviction object');
    const opts = eviction.deleteOptions ?? {};
    if (opts.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
      throw invalid(evictionKind, t.name, [{ type: 'FieldValueInvalid', field: 'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential', value: true,
        detail: 'can not be set for pod eviction, try after removing the option' }]);
    }
    const bodyDryRun = (opts.dryRun ?? []).includes('All');
    if (dryRunQuery && (opts.dryRun ?? []).length > 0 && !bodyDryRun) {
      throw new ServedStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Non-matching dry-run options in request and content: [All] and [${(opts.dryRun ?? []).join(' ')}]`, reason: 'InternalError', code: 500 });
    }
    const dryRun = dryRunQuery || bodyDryRun;
    const pods = t.resource;
    const pod = this.registry.stored(pods, t.namespace, t.name) as Pod | undefined;
    if (pod === undefined) throw notFound(pods, t.name);
    if (canIgnorePDB(pod)) return this.deletePod(t, dryRun, opts.preconditions);

    const budgets = this.budgetsOf(pod);
    if (budgets.length > 1) {
      // Answered as a Status in a 201 response, as kube-apiserver returns it from Create.
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 };
    }
    const pdb = budgets[0];
    if (pdb !== undefined) {
      const status = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
      const unhealthyMayGo = !isPodReady(pod) &&
        (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0));
      if (!unhealthyMayGo) this.checkAndDecrement(pdb, status, pod.metadata.name ?? '', dryRun);
    }
    return this.deletePod(t, dryRun, opts.preconditions);
  }

  /** The namespace's budgets whose selector matches the pod's labels (a malformed selector matches nothing). */
  private budgetsOf(pod: Pod): Pdb[] {
    const out: Pdb[] = [];
    for (const pdb of this.registry.cluster.list<Pdb>('PodDisruptionBudget')) {
      if ((pdb.metadata?.namespace ?? 'default') !== (pod.metadata.namespace ?? 'default')) continue;
      let selector: Selector;
      try {
        selector = Selector.compile(pdb.spec?.selector);
      } catch {
        continue;
      }
      if (selector.matches(pod.metadata.labels)) out.push(pdb);
    }
    return out;
  }

  /** Refuses the eviction when the budget allows no disruption now; records it in the budget's status otherwise. */
  private checkAndDecrement(pdb: Pdb, status: PdbStatus, podName: string, dryRun: boolean): void {
    const name = pdb.metadata?.name ?? '';
    if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
    if (status.disruptionsAllowed < 0) throw forbiddenByBudget(name, 'pdb disruptions allowed is negative', 'pdb disruptions allowed is negative');
    if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPodSize) {
      throw forbiddenByBudget(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller', 'too many pending evictions not confirmed by PDB controller');
    }
    if (status.disruptionsAllowed === 0) {
      const cond = (status.conditions ?? []).find((c) => c.type === 'DisruptionAllowed');
      let msg: string;
      if (cond !== undefined && cond.status === 'False' && cond.message !== '' && cond.reason === 'SyncFailed') {
        msg = `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${cond.message}`;
      } else if (status.currentHealthy <= status.desiredHealthy) {
        msg = `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`;
      } else if (cond !== undefined && cond.status === 'False' && cond.message !== '') {
        msg = `The disruption budget ${name} does not allow evicting pods currently (${cond.reason}): ${cond.message}`;
      } else {
        msg = `The disruption budget ${name} does not allow evicting pods currently`;
      }
      throw tooManyRequests(violates, 0, msg);
    }
    if (dryRun) return;
    const now = this.clock.now();
    const next: PdbStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
    if (next.disruptionsAllowed === 0) next.conditions = disruptionAllowedCondition(next, now);
    next.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    this.registry.cluster.update({ ...pdb, status: next });
  }

  /** Marks the pod with the DisruptionTarget condition and deletes it (addConditionAndDeletePod). */
  private deletePod(t: Target, dryRun: boolean, preconditions: { uid?: string; resourceVersion?: string } | undefined): StatusObject {
    if (!dryRun) {
      // Preconditions are checked against the pod as found, before the condition write changes its version.
      if (preconditions !== undefined) this.registry.delete(t, { dryRun: true, preconditions });
      const cur = this.registry.stored(t.resource, t.namespace, t.name) as Pod;
      const next = structuredClone(cur);
      setCondition(next, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting',
        lastTransitionTime: new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') });
      this.registry.cluster.update(next);
    }
    this.registry.delete(t, dryRun ? { dryRun, preconditions } : {});
    return successStatus(201);
  }
}
