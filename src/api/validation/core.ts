// Namespaces and Services as the API server validates them (pkg/apis/core/validation/validation.go
// ValidateNamespace, ValidateService): the parts a scheduler's view of a cluster depends on.
import type { Namespace, Service } from '../types.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required, type FieldError } from './field.js';
import { dns1123LabelErrors, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, validateLabels, validateObjectMeta } from './meta.js';
import { qualifiedNameErrors } from '../labels.js';

export function validateNamespace(ns: Namespace): FieldError[] {
  const errs = validateObjectMeta(ns.metadata ?? {}, false, nameIsDNSLabel);
  for (const f of ns.spec?.finalizers ?? []) {
    const msgs = qualifiedNameErrors(f);
    for (const m of msgs) errs.push(invalid('spec.finalizers', f, m));
    if (msgs.length === 0 && !f.includes('/') && f !== 'kubernetes') {
      errs.push(invalid('spec.finalizers', f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const sessionAffinities = ['ClientIP', 'None'];
const portProtocols = ['SCTP', 'TCP', 'UDP'];

function portNumErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

export function validateService(svc: Service): FieldError[] {
  const errs = validateObjectMeta(svc.metadata ?? {}, true, nameIsDNS1035Label);
  const spec = svc.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const headless = spec.clusterIP === 'None' || (spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === 'None');
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports'));
  if (type === 'ExternalName') {
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname === '') errs.push(required('spec.externalName'));
    else for (const m of nameIsDNSSubdomain(cname, false)) errs.push(invalid('spec.externalName', cname, m));
  }
  const names = new Set<string>();
  const seen = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const p = index('spec.ports', i);
    const port = ports[i]!;
    if (ports.length > 1 && !port.name) errs.push(required(child(p, 'name')));
    else if (port.name) {
      for (const m of dns1123LabelErrors(port.name)) errs.push(invalid(child(p, 'name'), port.name, m));
      if (names.has(port.name)) errs.push(duplicate(child(p, 'name'), port.name));
      names.add(port.name);
    }
    for (const m of portNumErrors(port.port ?? 0)) errs.push(invalid(child(p, 'port'), port.port ?? 0, m));
    const protocol = port.protocol ?? 'TCP';
    if (!portProtocols.includes(protocol)) errs.push(notSupported(child(p, 'protocol'), protocol, portProtocols));
    const target = port.targetPort;
    if (typeof target === 'number' && target !== 0) for (const m of portNumErrors(target)) errs.push(invalid(child(p, 'targetPort'), target, m));
    if (typeof target === 'string' && !/^[-a-z0-9]{1,15}$/.test(target)) errs.push(invalid(child(p, 'targetPort'), target, 'must be a valid port name'));
    if (type === 'ClusterIP' && port.nodePort) errs.push(forbidden(child(p, 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    const id = `${protocol}/${port.port ?? 0}`;
    if (seen.has(id)) errs.push(duplicate(p, id));
    seen.add(id);
  }
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (spec.sessionAffinity !== undefined && !sessionAffinities.includes(spec.sessionAffinity)) {
    errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, sessionAffinities));
  }
  if (!serviceTypes.includes(type)) errs.push(notSupported('spec.type', type, serviceTypes));
  return errs;
}
