// Pods and pod templates as the API server validates them (pkg/apis/core/validation/validation.go
// ValidatePodCreate, ValidatePodSpec, validateContainers, ValidateVolumes, ValidatePodUpdate).
// Fields the API server fills by defaulting (protocol, restartPolicy, dnsPolicy, ...) are accepted
// when absent, as the defaulted object would carry them.
import { qualifiedNameErrors } from '../labels.js';
import type { Container, ContainerPort, ObjectMeta, Pod, PodSpec, QuantityValue, ResourceList } from '../types.js';
import { child, duplicate, forbidden, index, invalid, key, notFound, notSupported, required, Unquoted, type FieldError } from './field.js';
import { dns1123LabelErrors, nameIsDNSSubdomain, uniqueNames, validateLabels, validateObjectMeta } from './meta.js';
import { validateContainerResources, validateNonnegativeQuantity, validateOverhead, validatePodLevelResources } from './resources.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling_constraints.js';
import { validatePersistentVolumeClaimSpec } from './volumes.js';

const portProtocols = ['SCTP', 'TCP', 'UDP'];

/** validation.IsValidPortNum. */
function portNumErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** validation.IsValidPortName. */
function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

function validateContainerPorts(ports: readonly ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (let i = 0; i < (ports?.length ?? 0); i++) {
    const port = ports![i]!;
    const p = index(path, i);
    if (port.name) {
      const msgs = portNameErrors(port.name);
      for (const m of msgs) errs.push(invalid(child(p, 'name'), port.name, m));
      if (msgs.length === 0 && names.has(port.name)) errs.push(duplicate(child(p, 'name'), port.name));
      names.add(port.name);
    }
    if (!port.containerPort) errs.push(required(child(p, 'containerPort')));
    else for (const m of portNumErrors(port.containerPort)) errs.push(invalid(child(p, 'containerPort'), port.containerPort, m));
    if (port.hostPort) for (const m of portNumErrors(port.hostPort)) errs.push(invalid(child(p, 'hostPort'), port.hostPort, m));
    if (port.protocol !== undefined && !portProtocols.includes(port.protocol)) errs.push(notSupported(child(p, 'protocol'), port.protocol, portProtocols));
  }
  return errs;
}

/** AccumulateUniqueHostPorts over `containers`: one protocol/IP/port may be claimed once. */
function hostPortConflicts(containers: readonly Container[], path: string, seen = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const id = `${port.protocol ?? 'TCP'}/${port.hostIP ?? ''}/${port.hostPort}`;
      if (seen.has(id)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id));
      seen.add(id);
    });
  });
  return errs;
}

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

/** validateContainerCommon: what any container needs (name, image, ports, mounts, resources). */
function validateContainer(c: Container, volumes: ReadonlySet<string>, claims: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(required(child(path, 'name')));
  else for (const m of dns1123LabelErrors(c.name)) errs.push(invalid(child(path, 'name'), c.name, m));
  if (!c.image) errs.push(required(child(path, 'image')));
  else if (c.image !== c.image.trim()) errs.push(invalid(child(path, 'image'), c.image, 'must not have leading or trailing whitespace'));
  errs.push(...validateContainerPorts(c.ports, child(path, 'ports')));
  const mounts = c.volumeMounts ?? [];
  const mountPaths = new Set<string>();
  for (let i = 0; i < mounts.length; i++) {
    const m = mounts[i]!;
    const p = index(child(path, 'volumeMounts'), i);
    if (!m.name) errs.push(required(child(p, 'name')));
    if (!volumes.has(m.name ?? '')) errs.push(notFound(child(p, 'name'), m.name ?? ''));
    if (!m.mountPath) errs.push(required(child(p, 'mountPath')));
    else if (mountPaths.has(m.mountPath)) errs.push(invalid(child(p, 'mountPath'), m.mountPath, 'must be unique'));
    mountPaths.add(m.mountPath ?? '');
  }
  if (c.imagePullPolicy && !pullPolicies.includes(c.imagePullPolicy)) errs.push(notSupported(child(path, 'imagePullPolicy'), c.imagePullPolicy, pullPolicies));
  const envs = c.env ?? [];
  for (let i = 0; i < envs.length; i++) if (!envs[i]!.name) errs.push(required(child(index(child(path, 'env'), i), 'name')));
  errs.push(...validateContainerResources(c.resources, claims, child(path, 'resources')));
  return errs;
}

/** Volume sources a pod volume may name; exactly one per volume. */
const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs', 'persistentVolumeClaim',
  'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap', 'vsphereVolume', 'quobyte', 'azureDisk',
  'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
];

/** ValidateVolumes: unique DNS-label names, exactly one source, claim names where claims are used. */
function validateVolumes(spec: PodSpec, podName: string, path: string): { names: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const volumes = spec.volumes ?? [];
  for (let i = 0; i < volumes.length; i++) {
    const v = volumes[i]! as unknown as Record<string, unknown> & { name?: string };
    const p = index(path, i);
    const own: FieldError[] = [];
    let sources = 0;
    for (const s of volumeSources) {
      if (v[s] === undefined || v[s] === null) continue;
      if (sources > 0) own.push(forbidden(child(p, s), 'may not specify more than 1 volume type'));
      sources++;
    }
    if (sources === 0) own.push(required(p, 'must specify a volume type'));
    const pvc = v.persistentVolumeClaim as { claimName?: string } | undefined;
    if (pvc && !pvc.claimName) own.push(required(child(child(p, 'persistentVolumeClaim'), 'claimName')));
    const eph = v.ephemeral as { volumeClaimTemplate?: { spec?: Parameters<typeof validatePersistentVolumeClaimSpec>[0] } } | undefined;
    if (eph) {
      const tp = child(child(p, 'ephemeral'), 'volumeClaimTemplate');
      if (!eph.volumeClaimTemplate) own.push(required(tp));
      else own.push(...validatePersistentVolumeClaimSpec(eph.volumeClaimTemplate.spec ?? {}, child(tp, 'spec')));
      if (podName && v.name) {
        for (const m of nameIsDNSSubdomain(`${podName}-${v.name}`, false)) own.push(invalid(child(p, 'name'), v.name, `PVC name "${podName}-${v.name}": ${m}`));
      }
    }
    if (!v.name) own.push(required(child(p, 'name')));
    else own.push(...dns1123LabelErrors(v.name).map((m) => invalid(child(p, 'name'), v.name, m)));
    if (v.name && names.has(v.name)) own.push(duplicate(child(p, 'name'), v.name));
    if (own.length === 0) names.add(v.name!);
    errs.push(...own);
  }
  return { names, errs };
}

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** The pod's claim names (gatherPodResourceClaimNames) and their own validation (validatePodResourceClaim). */
function validatePodResourceClaims(spec: PodSpec, podMeta: ObjectMeta | null, path: string): { names: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const claims = spec.resourceClaims ?? [];
  const staticPod = podMeta?.annotations?.['kubernetes.io/config.mirror'] !== undefined;
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]! as { name?: string; resourceClaimName?: string; resourceClaimTemplateName?: string };
    const p = index(path, i);
    if (c.name) names.add(c.name);
    if (staticPod) {
      errs.push(forbidden('', 'static pods do not support resource claims'));
      continue;
    }
    if (!c.name) errs.push(required(child(p, 'name')));
    else if (claims.slice(0, i).some((o) => (o as { name?: string }).name === c.name)) errs.push(duplicate(child(p, 'name'), c.name));
    else errs.push(...dns1123LabelErrors(c.name).map((m) => invalid(child(p, 'name'), c.name, m)));
    const byName = c.resourceClaimName !== undefined;
    const byTemplate = c.resourceClaimTemplateName !== undefined;
    // Upstream prints the internal struct, whose fields have no JSON names.
    const shown = new Unquoted(`{"Name":${JSON.stringify(c.name ?? '')},"ResourceClaimName":${JSON.stringify(c.resourceClaimName ?? null)},"ResourceClaimTemplateName":${JSON.stringify(c.resourceClaimTemplateName ?? null)}}`);
    if (byName && byTemplate) errs.push(invalid(p, shown, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!byName && !byTemplate) errs.push(invalid(p, shown, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (byName) for (const m of nameIsDNSSubdomain(c.resourceClaimName!, false)) errs.push(invalid(child(p, 'resourceClaimName'), c.resourceClaimName, m));
    if (byTemplate) for (const m of nameIsDNSSubdomain(c.resourceClaimTemplateName!, false)) errs.push(invalid(child(p, 'resourceClaimTemplateName'), c.resourceClaimTemplateName, m));
  }
  return { names, errs };
}

export interface PodSpecOptions {
  /** The spec is a pod's (not a template's): host ports must then match container ports on the host network. */
  readonly resourceIsPod: boolean;
}

/** ValidatePodSpec. */
export function validatePodSpec(spec: PodSpec, podMeta: ObjectMeta | null, path: string, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const volumes = validateVolumes(spec, podMeta?.name ?? '', child(path, 'volumes'));
  errs.push(...volumes.errs);
  const claims = validatePodResourceClaims(spec, podMeta, child(path, 'resourceClaims'));
  errs.push(...claims.errs);

  const containers = spec.containers ?? [];
  const containersPath = child(path, 'containers');
  if (containers.length === 0) errs.push(required(containersPath));
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i]!;
    errs.push(...validateContainer(c, volumes.names, claims.names, index(containersPath, i)));
    if (c.restartPolicy !== undefined) errs.push(forbidden(child(index(containersPath, i), 'restartPolicy'), 'may not be set for non-init containers'));
  }
  errs.push(...uniqueNames(containers.map((c) => c.name ?? ''), (i) => child(index(containersPath, i), 'name')));
  errs.push(...hostPortConflicts(containers, containersPath));

  const inits = spec.initContainers ?? [];
  const initPath = child(path, 'initContainers');
  const allNames = new Set(containers.map((c) => c.name ?? ''));
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!;
    const p = index(initPath, i);
    errs.push(...validateContainer(c, volumes.names, claims.names, p));
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') errs.push(notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
    if (c.name && allNames.has(c.name)) errs.push(duplicate(child(p, 'name'), c.name));
    else if (c.name) allNames.add(c.name);
    // Init containers run one at a time: each only conflicts with itself.
    errs.push(...hostPortConflicts([c], initPath));
  }

  errs.push(...validatePodLevelResources(spec, child(path, 'resources')));
  if (spec.hostNetwork) {
    containers.forEach((c, i) => (c.ports ?? []).forEach((port, j) => {
      if ((opts.resourceIsPod || port.hostPort) && (port.hostPort ?? 0) !== (port.containerPort ?? 0)) {
        errs.push(invalid(child(index(child(index(containersPath, i), 'ports'), j), 'hostPort'), port.hostPort ?? 0, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }));
  }
  if (spec.restartPolicy !== undefined && !restartPolicies.includes(spec.restartPolicy)) errs.push(notSupported(child(path, 'restartPolicy'), spec.restartPolicy, restartPolicies));
  if (spec.dnsPolicy !== undefined && !dnsPolicies.includes(spec.dnsPolicy)) errs.push(notSupported(child(path, 'dnsPolicy'), spec.dnsPolicy, dnsPolicies));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validateAffinity(spec.affinity, child(path, 'affinity')));
  errs.push(...validateSchedulingGates(spec, child(path, 'schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, child(path, 'topologySpreadConstraints')));
  for (const [field, value] of [['serviceAccountName', spec.serviceAccountName], ['nodeName', spec.nodeName], ['priorityClassName', spec.priorityClassName]] as const) {
    if (value) for (const m of nameIsDNSSubdomain(value, false)) errs.push(invalid(child(path, field), value, m));
  }
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > 2147483647)) {
    errs.push(invalid(child(path, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  for (const field of ['hostname', 'subdomain'] as const) {
    const v = spec[field];
    if (v) for (const m of dns1123LabelErrors(v)) errs.push(invalid(child(path, field), v, m));
  }
  errs.push(...validateTolerations(spec.tolerations, child(path, 'tolerations')));
  if (spec.preemptionPolicy !== undefined && !preemptionPolicies.includes(spec.preemptionPolicy)) {
    errs.push(notSupported(child(path, 'preemptionPolicy'), spec.preemptionPolicy, preemptionPolicies));
  }
  if (spec.overhead) errs.push(...validateOverhead(spec.overhead, child(path, 'overhead')));
  if (spec.os) {
    if (!spec.os.name) errs.push(required(child(child(path, 'os'), 'name'), 'cannot be empty'));
    else if (spec.os.name !== 'linux' && spec.os.name !== 'windows') errs.push(notSupported(child(path, 'os'), spec.os.name, ['linux', 'windows']));
  }
  return errs;
}

function validateSchedulingGates(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const gates = spec.schedulingGates ?? [];
  for (let i = 0; i < gates.length; i++) {
    const name = gates[i]!.name ?? '';
    for (const m of qualifiedNameErrors(name)) errs.push(invalid(index(path, i), name, m));
    if (seen.has(name)) errs.push(duplicate(index(path, i), name));
    seen.add(name);
  }
  return errs;
}

/** ValidatePodCreate: metadata and spec of a new pod. */
export function validatePod(pod: Pod): FieldError[] {
  return [...validateObjectMeta(pod.metadata ?? {}, true, nameIsDNSSubdomain), ...validatePodSpec(pod.spec ?? ({} as PodSpec), pod.metadata ?? null, 'spec', { resourceIsPod: true })];
}

/** Resource quantities of `list` that are negative (upstream's ValidateResourceQuantityValue wording). */
function negativeQuantities(list: ResourceList | undefined, path: string, errs: FieldError[]): void {
  if (!list) return;
  for (const name in list) {
    const q = list[name]!;
    if (maybeNegative(q)) errs.push(...validateNonnegativeQuantity(q, key(path, name)));
  }
}

/** Only a leading minus can make a quantity negative: just those are parsed (the rest are checked later). */
function maybeNegative(q: QuantityValue): boolean {
  return typeof q === 'number' ? q < 0 : typeof q === 'string' && q.trimStart().startsWith('-');
}

/** Whether any quantity of the lists may be negative: paths are only built when one is. */
function anyMaybeNegative(...lists: (ResourceList | undefined)[]): boolean {
  for (const list of lists) {
    if (list) for (const name in list) if (maybeNegative(list[name]!)) return true;
  }
  return false;
}

/**
 * The checks a scheduler needs before it trusts a pod it did not see validated (from a real API
 * server of another version, or built by a library caller), beyond the typed shape: quantities
 * that are not negative, claim volumes that name their claim, and topology spread constraints
 * the plugin can evaluate. Deliberately
 * not all of ValidatePod: the scheduler (and upstream's own plugin tests) accept pods that API
 * validation would refuse for reasons that do not affect placement.
 */
export function validatePodSchedulingFields(pod: Pod): FieldError[] {
  const spec = pod.spec ?? ({} as PodSpec);
  const errs: FieldError[] = [];
  for (const [list, field] of [[spec.containers ?? [], 'containers'], [spec.initContainers ?? [], 'initContainers']] as const) {
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!.resources;
      if (!r || !anyMaybeNegative(r.requests, r.limits)) continue;
      const p = child(index(child('spec', field), i), 'resources');
      negativeQuantities(r.requests, child(p, 'requests'), errs);
      negativeQuantities(r.limits, child(p, 'limits'), errs);
    }
  }
  negativeQuantities(spec.overhead, 'spec.overhead', errs);
  const volumes = spec.volumes ?? [];
  for (let i = 0; i < volumes.length; i++) {
    const claim = volumes[i]!.persistentVolumeClaim;
    if (claim && !claim.claimName) errs.push(required(child(child(index('spec.volumes', i), 'persistentVolumeClaim'), 'claimName')));
  }
  negativeQuantities(spec.resources?.requests, 'spec.resources.requests', errs);
  const constraints = spec.topologySpreadConstraints ?? [];
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const p = index('spec.topologySpreadConstraints', i);
    if ((c.maxSkew ?? 0) <= 0) errs.push(invalid(child(p, 'maxSkew'), c.maxSkew ?? 0, 'must be greater than zero'));
    if (!c.topologyKey) errs.push(required(child(p, 'topologyKey'), 'can not be empty'));
    const action = c.whenUnsatisfiable ?? '';
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') errs.push(notSupported(child(p, 'whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    if (c.minDomains !== undefined && c.minDomains <= 0) errs.push(invalid(child(p, 'minDomains'), c.minDomains, 'must be greater than zero'));
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[policy];
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') errs.push(notSupported(child(p, policy), v, ['Honor', 'Ignore']));
    }
  }
  return errs;
}
