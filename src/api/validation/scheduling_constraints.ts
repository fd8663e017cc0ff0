// The scheduling constraints of a pod spec as pkg/apis/core/validation/validation.go validates
// them: node selector terms, (anti-)affinity, tolerations, taints, topology spread constraints.
// Shared by pods, pod templates, node taints and persistent volumes' node affinity.
import { labelValueErrors } from '../labels.js';
import type {
  Affinity, LabelSelector, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, Taint, Toleration,
  TopologySpreadConstraint, WeightedPodAffinityTerm,
} from '../types.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required, type FieldError } from './field.js';
import { nameIsDNSLabel, nameIsDNSSubdomain, validateLabelName, validateLabelSelector } from './meta.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** validateTaintEffect: one of the three effects (empty allowed for tolerations). */
function validateTaintEffect(effect: string | undefined, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && !effect) return [required(path)];
  if ((taintEffects as readonly string[]).includes(effect ?? '')) return [];
  return [notSupported(path, effect ?? '', taintEffects)];
}

/** ValidateNodeSelectorRequirement; `checkValues` is off for preferred terms, as upstream allows. */
function validateNodeSelectorRequirement(r: NodeSelectorRequirement, checkValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(child(path, 'operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(r.key ?? '', child(path, 'key')));
  if (checkValues) {
    for (let i = 0; i < values.length; i++) for (const m of labelValueErrors(values[i]!)) errs.push(invalid(index(child(path, 'values'), i), values[i], m));
  }
  return errs;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with In/NotIn and one value. */
function validateNodeFieldSelectorRequirement(r: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(child(path, 'operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name') {
    errs.push(invalid(child(path, 'key'), r.key ?? '', 'not a valid field selector key'));
  } else {
    for (let i = 0; i < values.length; i++) for (const m of nameIsDNSSubdomain(values[i]!, false)) errs.push(invalid(index(child(path, 'values'), i), values[i], m));
  }
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, checkValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const exprs = term.matchExpressions ?? [];
  for (let i = 0; i < exprs.length; i++) errs.push(...validateNodeSelectorRequirement(exprs[i]!, checkValues, index(child(path, 'matchExpressions'), i)));
  const fields = term.matchFields ?? [];
  for (let i = 0; i < fields.length; i++) errs.push(...validateNodeFieldSelectorRequirement(fields[i]!, index(child(path, 'matchFields'), i)));
  return errs;
}

/** ValidateNodeSelector: at least one term, each valid. */
export function validateNodeSelector(sel: NodeSelector, path: string): FieldError[] {
  const termsPath = child(path, 'nodeSelectorTerms');
  const terms = sel.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [required(termsPath, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  for (let i = 0; i < terms.length; i++) errs.push(...validateNodeSelectorTerm(terms[i]!, true, index(termsPath, i)));
  return errs;
}

function validateWeight(weight: number | undefined, path: string): FieldError[] {
  const w = weight ?? 0;
  return w <= 0 || w > 100 ? [invalid(path, w, 'must be in the range 1-100')] : [];
}

/** validateMatchLabelKeysAndMismatchLabelKeys for an affinity term. */
function validateAffinityLabelKeys(term: PodAffinityTerm, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const sel: LabelSelector | undefined = term.labelSelector ?? undefined;
  for (const [field, keys] of [['matchLabelKeys', term.matchLabelKeys], ['mismatchLabelKeys', term.mismatchLabelKeys]] as const) {
    if (!keys || keys.length === 0) continue;
    if (!sel) {
      errs.push(forbidden(child(path, field), 'must not be specified when labelSelector is not set'));
      continue;
    }
    for (let i = 0; i < keys.length; i++) errs.push(...validateLabelName(keys[i]!, index(child(path, field), i)));
  }
  if (sel) {
    const matchKeys = new Map<string, number>();
    (term.matchLabelKeys ?? []).forEach((k, i) => matchKeys.set(k, i));
    const selectorKeys = new Set(Object.keys(sel.matchLabels ?? {}));
    for (const e of sel.matchExpressions ?? []) {
      const i = matchKeys.get(e.key);
      if (i !== undefined && selectorKeys.has(e.key)) errs.push(invalid(index(path, i), e.key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(e.key);
    }
  }
  const mismatch = new Set(term.mismatchLabelKeys ?? []);
  (term.matchLabelKeys ?? []).forEach((k, i) => {
    if (mismatch.has(k)) errs.push(invalid(index(child(path, 'matchLabelKeys'), i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: string): FieldError[] {
  const errs = [...validateLabelSelector(term.labelSelector, child(path, 'labelSelector')), ...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'))];
  for (const ns of term.namespaces ?? []) for (const m of nameIsDNSLabel(ns, false)) errs.push(invalid(child(path, 'namespace'), ns, m));
  errs.push(...validateAffinityLabelKeys(term, path));
  if (!term.topologyKey) errs.push(required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(term.topologyKey ?? '', child(path, 'topologyKey')));
  return errs;
}

function validatePodAffinityGroup(
  group: { requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[]; preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[] },
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const req = group.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  for (let i = 0; i < req.length; i++) errs.push(...validatePodAffinityTerm(req[i]!, index(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), i)));
  const pref = group.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  for (let i = 0; i < pref.length; i++) {
    const p = index(child(path, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
    errs.push(...validateWeight(pref[i]!.weight, child(p, 'weight')));
    errs.push(...validatePodAffinityTerm(pref[i]!.podAffinityTerm ?? ({} as PodAffinityTerm), child(p, 'podAffinityTerm')));
  }
  return errs;
}

export function validateAffinity(affinity: Affinity | undefined, path: string): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const na = affinity.nodeAffinity;
  if (na) {
    const p = child(path, 'nodeAffinity');
    if (na.requiredDuringSchedulingIgnoredDuringExecution) {
      errs.push(...validateNodeSelector(na.requiredDuringSchedulingIgnoredDuringExecution, child(p, 'requiredDuringSchedulingIgnoredDuringExecution')));
    }
    const pref = na.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    for (let i = 0; i < pref.length; i++) {
      const tp = index(child(p, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      errs.push(...validateWeight(pref[i]!.weight, child(tp, 'weight')));
      // Preferred terms may name label values that no node has.
      errs.push(...validateNodeSelectorTerm(pref[i]!.preference ?? {}, false, child(tp, 'preference')));
    }
  }
  if (affinity.podAffinity) errs.push(...validatePodAffinityGroup(affinity.podAffinity, child(path, 'podAffinity')));
  if (affinity.podAntiAffinity) errs.push(...validatePodAffinityGroup(affinity.podAntiAffinity, child(path, 'podAntiAffinity')));
  return errs;
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: readonly Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (let i = 0; i < (tolerations?.length ?? 0); i++) {
    const t = tolerations![i]!;
    const p = index(path, i);
    const k = t.key ?? '';
    if (k !== '') errs.push(...validateLabelName(k, child(p, 'key')));
    if (k === '' && t.operator !== 'Exists') {
      errs.push(invalid(child(p, 'operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(invalid(child(p, 'effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const msgs = labelValueErrors(t.value ?? '');
        if (msgs.length > 0) errs.push(invalid(child(p, 'operator'), t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(invalid(child(p, 'operator'), t.value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(child(p, 'operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect) errs.push(...validateTaintEffect(t.effect, true, child(p, 'effect')));
  }
  return errs;
}

/** validateNodeTaints: key, value and effect of each, unique by key and effect. */
export function validateTaints(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < (taints?.length ?? 0); i++) {
    const t = taints![i]!;
    const p = index(path, i);
    errs.push(...validateLabelName(t.key ?? '', child(p, 'key')));
    const msgs = labelValueErrors(t.value ?? '');
    if (msgs.length > 0) errs.push(invalid(child(p, 'value'), t.value ?? '', msgs.join(';')));
    errs.push(...validateTaintEffect(t.effect, false, child(p, 'effect')));
    const id = `${t.effect ?? ''}\u0000${t.key ?? ''}`;
    if (seen.has(id)) {
      errs.push({ ...duplicate(p, t), detail: 'taints must be unique by key and effect pair' });
      continue;
    }
    seen.add(id);
  }
  return errs;
}

const scheduleActions = ['DoNotSchedule', 'ScheduleAnyway'];
const inclusionPolicies = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: readonly TopologySpreadConstraint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = constraints ?? [];
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    const p = index(path, i);
    const maxSkew = c.maxSkew ?? 0;
    if (maxSkew <= 0) errs.push(invalid(child(p, 'maxSkew'), maxSkew, 'must be greater than zero'));
    if (!c.topologyKey) errs.push(required(child(p, 'topologyKey'), 'can not be empty'));
    const action = c.whenUnsatisfiable ?? '';
    if (!scheduleActions.includes(action)) errs.push(notSupported(child(p, 'whenUnsatisfiable'), action, scheduleActions));
    for (let j = i + 1; j < list.length; j++) {
      if (list[j]!.topologyKey === c.topologyKey && list[j]!.whenUnsatisfiable === c.whenUnsatisfiable) {
        errs.push(duplicate(child(p, '{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey ?? ''}, ${action}}`));
        break;
      }
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(invalid(child(p, 'minDomains'), c.minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(invalid(child(p, 'minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[policy];
      if (v !== undefined && !inclusionPolicies.includes(v)) errs.push(notSupported(child(p, policy), v, inclusionPolicies));
    }
    errs.push(...validateSpreadLabelKeys(c, child(p, 'matchLabelKeys')));
    errs.push(...validateLabelSelector(c.labelSelector, child(p, 'labelSelector')));
  }
  return errs;
}

function validateSpreadLabelKeys(c: TopologySpreadConstraint, path: string): FieldError[] {
  const keys = c.matchLabelKeys ?? [];
  if (keys.length === 0) return [];
  const errs: FieldError[] = [];
  const selectorKeys = new Set<string>();
  if (c.labelSelector) {
    for (const k of Object.keys(c.labelSelector.matchLabels ?? {})) selectorKeys.add(k);
    for (const e of c.labelSelector.matchExpressions ?? []) selectorKeys.add(e.key);
  } else {
    errs.push(forbidden(path, 'must not be specified when labelSelector is not set'));
  }
  for (let i = 0; i < keys.length; i++) {
    errs.push(...validateLabelName(keys[i]!, index(path, i)));
    if (selectorKeys.has(keys[i]!)) errs.push(invalid(index(path, i), keys[i], 'exists in both matchLabelKeys and labelSelector'));
  }
  return errs;
}
