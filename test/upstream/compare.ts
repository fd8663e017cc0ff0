// Compares our explain output with the harness's for one scenario, pod by pod: each
// disagreement is either explained by a known difference (known_differences.ts) or reported.
import type { ExplainPod } from '../../src/sim/explain/explain.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';
import { comparePod } from '../fidelity_compare.js';
import { knownDifferences, type KnownDifference } from './known_differences.js';

/** One entry of a pod's resource claims in the explain JSON (test/upstream/README.md). */
export interface ExplainClaim {
  /** The entry's name in the pod's spec.resourceClaims. */
  name: string;
  /** The ResourceClaim the entry uses. */
  claim: string;
  /** The claim's allocation after the attempt, in its order; empty while unallocated. */
  devices: { request: string; driver: string; pool: string; device: string; adminAccess?: boolean }[];
}

/** One device allocated for a claim. */
export type ExplainDevice = ExplainClaim['devices'][number];

/** A device allocated to one of the pod's claims, with the claim's name. */
export interface ExplainClaimDevice extends ExplainDevice {
  claim: string;
}

/**
 * The explain JSON of a pod with its claims: the harness's `claims` (only there for a pod with
 * claims), or the flat `devices` list of the devices reserved for the pod that our explain
 * reports; and the devices of its extended resources backed by a DeviceClass (only there when it
 * got such devices).
 */
export type ExplainPodWithClaims = ExplainPod & { claims?: ExplainClaim[]; devices?: ExplainClaimDevice[]; extendedResourceDevices?: ExplainDevice[] };

const deviceText = (d: ExplainDevice): string => `${d.request}=${d.driver}/${d.pool}/${d.device}${d.adminAccess ? ' (admin)' : ''}`;

/**
 * The devices the pod holds through its claims, in the order of its entries and of each
 * allocation: a bound pod holds all its claims' devices, a pod not scheduled none (a claim another
 * pod allocated is not reserved for it).
 */
/** Our flat `devices` list names the extended-resources claim like any claim: the devices of that claim. */
function isExtendedResourcesDevice(p: Pick<ExplainPodWithClaims, 'pod'>, d: ExplainClaimDevice): boolean {
  return d.claim.startsWith(`${p.pod.slice(p.pod.indexOf('/') + 1)}-extended-resources-`);
}

/** The devices of the pod's extended resources: the harness's list, or those of its claim in our flat list. */
function extendedResourceDevices(p: Pick<ExplainPodWithClaims, 'pod' | 'devices' | 'extendedResourceDevices'>): ExplainDevice[] {
  if (p.extendedResourceDevices) return p.extendedResourceDevices;
  return (p.devices ?? []).filter((d) => isExtendedResourcesDevice(p, d));
}

export function heldDevices(p: Pick<ExplainPodWithClaims, 'pod' | 'outcome' | 'claims' | 'devices'>): string[] {
  if (p.devices) return p.devices.filter((d) => !isExtendedResourcesDevice(p, d)).map((d) => `${d.claim}: ${deviceText(d)}`);
  if (p.outcome !== 'Scheduled') return [];
  return (p.claims ?? []).flatMap((c) => c.devices.map((d) => `${c.claim}: ${deviceText(d)}`));
}

/** The differences in the devices the pod holds through its claims and for its extended resources. */
export function compareClaims(e: ExplainPodWithClaims, a: ExplainPodWithClaims): string[] {
  const diffs: string[] = [];
  const eh = heldDevices(e);
  const ah = heldDevices(a);
  if (eh.join() !== ah.join()) diffs.push(`devices: expected [${eh.join(', ')}], actual [${ah.join(', ')}]`);
  const ee = extendedResourceDevices(e).map(deviceText);
  const ae = extendedResourceDevices(a).map(deviceText);
  if (ee.join() !== ae.join()) diffs.push(`extendedResourceDevices: expected [${ee.join(', ')}], actual [${ae.join(', ')}]`);
  return diffs;
}

/**
 * An attempt's timeline in the order both sides can promise: the pod's own nominations apart
 * (upstream's failure handler writes the preemptor's while the preemption goroutine clears other
 * nominations and deletes victims, in either order), everything else in the order it happened.
 */
function timelineOrder(pod: string, writes: readonly string[]): string {
  const own = `nominate ${pod} `;
  // A victim preempted in its binding cycle goes back to the queue from its own binding
  // goroutine upstream, racing the next victims' deletions: its requeue is compared apart too.
  const requeue = (w: string) => w.startsWith('requeue ');
  const rest = writes.filter((w) => !w.startsWith(own) && !requeue(w));
  const requeues = writes.filter(requeue).sort();
  return [...writes.filter((w) => w.startsWith(own)), '|', ...rest, ...(requeues.length > 0 ? ['|', ...requeues] : [])].join('; ');
}

/**
 * The attempt's timelines (`writes`: nominations set and cleared, victims deleted in order,
 * bindings, the preemptor's gate as its first victim goes), when both sides recorded one.
 */
export function compareWrites(e: Pick<ExplainPod, 'pod' | 'writes'>, a: Pick<ExplainPod, 'writes'>): string[] {
  if (!e.writes || !a.writes) return [];
  const [et, at] = [timelineOrder(e.pod, e.writes), timelineOrder(e.pod, a.writes)];
  return et === at ? [] : [`writes (own nominations | the rest): expected [${et}], actual [${at}]`];
}

/** Every difference between two answers for a pod: comparePod's, the claims' and the timeline's. */
function compareAll(e: ExplainPodWithClaims, a: ExplainPodWithClaims | undefined): string[] {
  const diffs = comparePod(e, a);
  return a ? [...diffs, ...compareClaims(e, a), ...compareWrites(e, a)] : diffs;
}

/** The API server's generateName alphabet: the five characters it appends. */
const suffixChars = '[bcdfghjklmnpqrstvwxz2456789]{5}';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The base the resourceclaim controller gives a template entry's claim (upstream's handleClaim, both parts cut in proportion past 57 characters). */
function claimNameBase(pod: string, entry: string): string {
  const base = `${pod}-${entry}-`;
  if (base.length <= 57) return base;
  return `${pod.slice(0, Math.floor((pod.length * 57) / base.length))}-${entry.slice(0, Math.floor((entry.length * 57) / base.length))}`;
}

/**
 * The output with the generated part of generated claim names (template entries' claims and the
 * extended-resources claim) replaced by `*****`, in every field, messages included: upstream's API
 * server picks those five characters at random, so the harness and ours each pick their own.
 */
export function maskGeneratedClaimNames<T>(output: T, scenario: Scenario): T {
  const pods = [...scenario.pods, ...scenario.pending];
  if (!pods.some((p) => p.spec.resourceClaims?.length) && !scenario.objects.some((o) => o.kind === 'DeviceClass')) return output;
  const bases: string[] = [];
  for (const p of pods) {
    const name = p.metadata.name ?? '';
    bases.push(`${name}-extended-resources-`);
    for (const e of p.spec.resourceClaims ?? []) if (e.resourceClaimTemplateName !== undefined) bases.push(claimNameBase(name, e.name));
  }
  const generated = new RegExp(`(${bases.map(escapeRegExp).join('|')})${suffixChars}`, 'g');
  return JSON.parse(JSON.stringify(output).replace(generated, '$1*****')) as T;
}

export interface PodComparison {
  pod: string;
  /** Field-by-field differences nothing explains ("expected" is upstream, "actual" ours). */
  diffs: string[];
  /** Known differences that explain the rest. */
  known: string[];
  /** An earlier pod of the scenario was placed differently, so the cluster already differed. */
  afterDivergence: boolean;
}

/** One retry in a line: its outcome, node, nomination and victims. */
const retryLine = (p: ExplainPod): string => `${p.outcome} ${p.node || '-'}${p.nominatedNode ? ` nominated ${p.nominatedNode}` : ''}${p.victims.length > 0 ? ` victims ${p.victims.join(',')}` : ''}`;

/** Whether two answers for an attempt place the pod differently: the cluster differs from then on. */
const placedDifferently = (u: ExplainPodWithClaims, o: ExplainPodWithClaims | undefined): boolean =>
  !o || o.node !== u.node || o.nominatedNode !== u.nominatedNode || o.victims.join() !== u.victims.join() || compareClaims(u, o).length > 0;

/** The final place's difference, unless a known difference explains it. */
function compareFinal(upstream: ExplainPodWithClaims, ours: ExplainPodWithClaims, scenario: Scenario, known: readonly KnownDifference[]): { diffs: string[]; known: string[] } {
  if (upstream.final === ours.final) return { diffs: [], known: [] };
  const k = known.find((k) => k.undo(upstream, ours, scenario)?.final === ours.final);
  return k ? { diffs: [], known: [k.id] } : { diffs: [`final: expected ${upstream.final}, actual ${ours.final}`], known: [] };
}

/**
 * The pods' retries and final places, when both sides report them (`final`; recordings made
 * before have none), added to `out`: as many retries per pod, each compared as an attempt (known
 * differences applied) in the order upstream made them (`seq`), then the final places. A
 * difference after an earlier attempt (first or retry) placed a pod differently is one that
 * follows from it: the pod's comparison is marked afterDivergence when all its differences are.
 */
function compareRetries(upstream: readonly ExplainPodWithClaims[], ours: readonly ExplainPodWithClaims[], scenario: Scenario, out: PodComparison[], divergedBefore: boolean, known: readonly KnownDifference[]): void {
  const pairs = upstream.flatMap((u) => {
    const o = ours.find((p) => p.pod === u.pod);
    return u.final !== undefined && o?.final !== undefined ? [{ u, o, c: out.find((c) => c.pod === u.pod)! }] : [];
  });
  let diverged = divergedBefore;
  const add = (c: PodComparison, r: { diffs: string[]; known: string[] }, prefix: string) => {
    for (const k of r.known) if (!c.known.includes(k)) c.known.push(k);
    if (r.diffs.length === 0) return;
    // Differences only after the divergence: the pod differs after an earlier disagreement.
    if (c.diffs.length === 0) c.afterDivergence = diverged;
    else if (!diverged) c.afterDivergence = false;
    c.diffs.push(...r.diffs.map((d) => `${prefix}${d}`));
  };
  const countsDiffer = pairs.filter(({ u, o }) => (u.retries ?? []).length !== (o.retries ?? []).length);
  const retries = pairs.flatMap(({ u, o, c }) => (countsDiffer.some((p) => p.u === u) ? [] : (u.retries ?? []).map((r, i) => ({ r, mine: o.retries![i]!, i, c }))));
  retries.sort((a, b) => (a.r.seq ?? 0) - (b.r.seq ?? 0));
  for (const { r, mine, i, c } of retries) {
    add(c, explainDifferences(r, mine, scenario, known), `retry ${i + 1}: `);
    if (placedDifferently(r, mine)) diverged = true;
  }
  for (const { u, o, c } of countsDiffer) {
    add(c, { diffs: [`retries: expected [${(u.retries ?? []).map(retryLine).join('; ')}], actual [${(o.retries ?? []).map(retryLine).join('; ')}]`], known: [] }, '');
  }
  if (countsDiffer.length > 0) diverged = true;
  for (const { u, o, c } of pairs) add(c, compareFinal(u, o, scenario, known), '');
}

/** One attempt's differences once every applicable known difference has been undone. */
export function explainDifferences(upstream: ExplainPodWithClaims, ours: ExplainPodWithClaims | undefined, scenario: Scenario, known: readonly KnownDifference[] = knownDifferences): { diffs: string[]; known: string[] } {
  let diffs = compareAll(upstream, ours);
  const used: string[] = [];
  if (diffs.length === 0 || !ours) return { diffs, known: used };
  let rewritten = upstream;
  for (const k of known) {
    const undone = k.undo(rewritten, ours, scenario);
    if (undone === null) continue;
    const left = compareAll(undone, ours);
    if (left.length < diffs.length) {
      rewritten = undone;
      diffs = left;
      used.push(k.id);
    }
    if (diffs.length === 0) break;
  }
  return { diffs, known: used };
}

/**
 * A binding that lands while a later pod is attempted is moved to its own pod's attempt, on either
 * side, when that attempt scheduled the pod on the bound node: an asynchronous binding cycle may finish before or after the next pod's cycle starts
 * (goroutine and event-loop timing), and where it lands is not a decision. Its place is still
 * compared through the pod's outcome and final placement.
 */
export function settleLateBindings<T extends Pick<ExplainPod, 'pod' | 'writes' | 'outcome' | 'node'>>(pods: readonly T[]): T[] {
  const out = pods.map((p) => (p.writes ? { ...p, writes: [...p.writes] } : { ...p }));
  for (const [i, p] of out.entries()) {
    if (!p.writes) continue;
    const kept: string[] = [];
    for (const w of p.writes) {
      const m = /^bind (\S+) (\S+)$/.exec(w);
      const owner = m && m[1] !== p.pod ? out.slice(0, i).find((q) => q.pod === m[1]) : undefined;
      const scheduledThere = owner?.outcome === 'Scheduled' && owner.node === m?.[2];
      if (scheduledThere && owner.writes && !owner.writes.some((x) => x.startsWith(`bind ${owner.pod} `))) owner.writes.push(w);
      else kept.push(w);
    }
    p.writes = kept;
  }
  return out;
}

export function compareScenario(scenario: Scenario, upstreamOutput: { pods: ExplainPodWithClaims[] }, oursOutput: { pods: ExplainPodWithClaims[] }): PodComparison[] {
  const upstreamMasked = maskGeneratedClaimNames(upstreamOutput, scenario);
  const oursMasked = maskGeneratedClaimNames(oursOutput, scenario);
  const upstream = { ...upstreamMasked, pods: settleLateBindings(upstreamMasked.pods) };
  const ours = { ...oursMasked, pods: settleLateBindings(oursMasked.pods) };
  const out: PodComparison[] = [];
  let diverged = false;
  for (const u of upstream.pods) {
    const o = ours.pods.find((p) => p.pod === u.pod);
    const { diffs, known } = explainDifferences(u, o, scenario);
    out.push({ pod: u.pod, diffs, known, afterDivergence: diverged });
    if (placedDifferently(u, o)) diverged = true;
  }
  compareRetries(upstream.pods, ours.pods, scenario, out, diverged, knownDifferences);
  for (const o of ours.pods) {
    if (!upstream.pods.some((u) => u.pod === o.pod)) out.push({ pod: o.pod, diffs: ['missing in upstream output'], known: [], afterDivergence: diverged });
  }
  return out;
}
