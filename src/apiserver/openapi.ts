// Minimal OpenAPI documents, enough for kubectl: a v2 document without definitions (kubectl then
// skips client-side schema validation and computes apply patches from its compiled-in types), and
// v3 documents whose PATCH operations declare the fieldValidation parameter (so kubectl leaves
// field validation to the server) (staging/src/k8s.io/kube-openapi handler, kubectl query_param_verifier.go).
import { createHash } from 'node:crypto';
import type { Resource } from './resources.js';

/** Go's mime parser rejects the '@' of the name clients ask for; kube-openapi answers with this one. */
export const openAPIV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

function protoString(field: number, s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([(field << 3) | 2, bytes.length]), bytes]);
}

function protoMessage(field: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2, body.length]), body]);
}

/** The gnostic openapi_v2.Document {swagger: "2.0", info: {title, version}, paths: {}} in protobuf. */
export function openAPIV2Protobuf(version: string): Buffer {
  return Buffer.concat([
    protoString(1, '2.0'),
    protoMessage(2, Buffer.concat([protoString(1, 'Kubernetes'), protoString(2, version)])),
    protoMessage(8, Buffer.alloc(0)),
  ]);
}

export function openAPIV2Json(version: string): Record<string, unknown> {
  return { swagger: '2.0', info: { title: 'Kubernetes', version }, paths: {} };
}

/** The served group/versions as OpenAPI v3 paths ("api/v1", "apis/apps/v1"). */
function v3Paths(resources: readonly Resource[]): string[] {
  const out: string[] = [];
  for (const r of resources) {
    const p = r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** One group/version's document: a PATCH operation per resource, tagged with its kind. */
export function openAPIV3GroupVersion(resources: readonly Resource[], path: string, version: string): Record<string, unknown> | undefined {
  const served = resources.filter((r) => (r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`) === path);
  if (served.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  for (const r of served) {
    const base = `/${path}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.name}/{name}`;
    paths[base] = {
      patch: {
        operationId: `patch${r.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: r.group, version: r.version, kind: r.kind },
        parameters: [
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version }, paths, components: { schemas: {} } };
}

/** The /openapi/v3 index naming each group/version document by a content hash. */
export function openAPIV3Index(resources: readonly Resource[], version: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const p of v3Paths(resources)) {
    const hash = createHash('sha512').update(JSON.stringify(openAPIV3GroupVersion(resources, p, version))).digest('hex').slice(0, 128).toUpperCase();
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` };
  }
  return { paths };
}
