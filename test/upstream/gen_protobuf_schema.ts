// Generates src/apiserver/protobuf_schema.ts: the protobuf field table of the built-in kinds kubectl's
// typed commands send (field numbers and types from the pinned release's generated.proto; whether a
// Go field is a pointer and omitempty from its types.go, which decide what a zero value means in
// JSON). Run: npx tsx test/upstream/gen_protobuf_schema.ts (needs the Go module cache of the pin).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const mod = '/root/go/pkg/mod/k8s.io';
const packages = [
  `${mod}/api@v0.37.2/core/v1`, `${mod}/api@v0.37.2/apps/v1`, `${mod}/api@v0.37.2/batch/v1`, `${mod}/api@v0.37.2/policy/v1`,
  `${mod}/api@v0.37.2/scheduling/v1`, `${mod}/api@v0.37.2/scheduling/v1beta1`, `${mod}/api@v0.37.2/scheduling/v1alpha3`, `${mod}/api@v0.37.2/autoscaling/v1`, `${mod}/apimachinery@v0.37.2/pkg/apis/meta/v1`,
];
/** The kinds a request body may hold, by apiVersion/kind ("*" for any version); a message named in
 * several packages by its full name. */
const roots: Record<string, string> = {
  'v1/Pod': 'Pod', 'v1/Namespace': 'Namespace', 'v1/Node': 'Node', 'v1/Service': 'Service', 'v1/ConfigMap': 'ConfigMap', 'v1/Binding': 'Binding',
  'apps/v1/Deployment': 'Deployment', 'apps/v1/DaemonSet': 'DaemonSet', 'apps/v1/ReplicaSet': 'ReplicaSet', 'apps/v1/StatefulSet': 'StatefulSet',
  'batch/v1/Job': 'Job', 'policy/v1/Eviction': 'Eviction', 'policy/v1/PodDisruptionBudget': 'PodDisruptionBudget',
  'scheduling.k8s.io/v1/PriorityClass': 'k8s.io.api.scheduling.v1.PriorityClass', 'autoscaling/v1/Scale': 'Scale', '*/DeleteOptions': 'DeleteOptions',
  'scheduling.k8s.io/v1beta1/Workload': 'k8s.io.api.scheduling.v1beta1.Workload', 'scheduling.k8s.io/v1beta1/PodGroup': 'k8s.io.api.scheduling.v1beta1.PodGroup',
};
/** Messages the decoder reads by hand (their JSON is not their fields). */
const special = new Set(['Time', 'MicroTime', 'Duration', 'Quantity', 'IntOrString', 'RawExtension', 'FieldsV1']);

interface ProtoField { num: number; name: string; type: string; repeated: boolean; mapValue?: string }
interface GoField { pointer: boolean; omitempty: boolean }

const scalars = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);
const messages = new Map<string, ProtoField[]>();
const goFields = new Map<string, Map<string, GoField>>();

const shortName = (t: string) => t.slice(t.lastIndexOf('.') + 1);

/** Messages by full name (package.Name); field types resolved to full names. */
function parseProto(text: string, goTypes?: Map<string, Map<string, GoField>>): void {
  const pkg = /^package ([\w.]+);$/m.exec(text)![1]!;
  const full = (t: string) => (scalars.has(t) ? t : t.includes('.') ? t.replace(/^\./, '') : `${pkg}.${t}`);
  let current: ProtoField[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const m = /^message (\w+) \{$/.exec(line);
    if (m) {
      messages.set(`${pkg}.${m[1]}`, (current = []));
      const go = goTypes?.get(m[1]!);
      if (go) goFields.set(`${pkg}.${m[1]}`, go);
      continue;
    }
    if (line === '}') { current = null; continue; }
    if (current === null) continue;
    const f = /^(optional|repeated) ([\w.]+) (\w+) = (\d+);$/.exec(line);
    if (f) { current.push({ num: Number(f[4]), name: f[3]!, type: full(f[2]!), repeated: f[1] === 'repeated' }); continue; }
    const mp = /^map<string, ([\w.]+)> (\w+) = (\d+);$/.exec(line);
    if (mp) current.push({ num: Number(mp[3]), name: mp[2]!, type: 'map', repeated: false, mapValue: full(mp[1]!) });
    else if (/=\s*\d+;$/.test(line)) throw new Error(`unparsed field: ${line}`);
  }
}

function parseGoTypes(text: string): Map<string, Map<string, GoField>> {
  const types = new Map<string, Map<string, GoField>>();
  let current: Map<string, GoField> | null = null;
  for (const raw of text.split('\n')) {
    const m = /^type (\w+) struct \{/.exec(raw);
    if (m) { types.set(m[1]!, (current = new Map())); continue; }
    if (/^\}/.test(raw)) { current = null; continue; }
    if (current === null) continue;
    const f = /^\s+(?:\w+\s+)?(\*?)[\w.[\]*]+\s+`json:"([^"]*)"/.exec(raw);
    if (!f) continue;
    const [name, ...opts] = f[2]!.split(',');
    if (name) current.set(name, { pointer: f[1] === '*', omitempty: opts.includes('omitempty') });
  }
  return types;
}

for (const dir of packages) {
  parseProto(readFileSync(join(dir, 'generated.proto'), 'utf8'), parseGoTypes(readFileSync(join(dir, 'types.go'), 'utf8')));
}
for (const dir of [`${mod}/apimachinery@v0.37.2/pkg/runtime`, `${mod}/apimachinery@v0.37.2/pkg/util/intstr`, `${mod}/apimachinery@v0.37.2/pkg/api/resource`]) {
  parseProto(readFileSync(join(dir, 'generated.proto'), 'utf8'));
}

const reachable = new Set<string>();
const visit = (name: string) => {
  if (scalars.has(name) || reachable.has(name)) return;
  if (!messages.has(name)) throw new Error(`unknown message ${name}`);
  reachable.add(name);
  if (special.has(shortName(name))) return;
  for (const f of messages.get(name)!) visit(f.type === 'map' ? f.mapValue! : f.type);
};
const byShortName = new Map<string, string[]>();
for (const name of messages.keys()) byShortName.set(shortName(name), [...(byShortName.get(shortName(name)) ?? []), name]);
const rootMessage = (short: string) => {
  if (messages.has(short)) return short;
  const apiPkgs = (byShortName.get(short) ?? []).filter((n) => !n.endsWith('.List') || short !== 'List');
  if (apiPkgs.length !== 1) throw new Error(`root ${short}: ${apiPkgs.join(', ') || 'no message'}`);
  return apiPkgs[0]!;
};
for (const r of Object.values(roots)) visit(rootMessage(r));
// The table keys messages by their short name, or by package and name where two reachable messages
// share one (core's and scheduling's TypedLocalObjectReference).
const sharing = new Map<string, number>();
for (const name of reachable) sharing.set(shortName(name), (sharing.get(shortName(name)) ?? 0) + 1);
const tableName = (t: string) => (scalars.has(t) ? t : sharing.get(shortName(t))! > 1 ? t.replace(/^k8s\.io\.(api|apimachinery\.pkg\.apis)\./, '') : shortName(t));
const typeName = tableName;

// One entry per field: [number, json name, type, flags]; flags 1 repeated, 2 map (of string to the type),
// 4 kept when zero (a Go pointer, or a field JSON writes even when empty).
const out: string[] = [];
for (const name of [...reachable].sort((a, b) => tableName(a).localeCompare(tableName(b)))) {
  if (special.has(shortName(name))) continue;
  const go = goFields.get(name);
  const rows = messages.get(name)!.map((f) => {
    const g = go?.get(f.name);
    const keep = g === undefined ? false : g.pointer || !g.omitempty;
    const flags = (f.repeated ? 1 : 0) | (f.type === 'map' ? 2 : 0) | (keep ? 4 : 0);
    return `[${f.num}, '${f.name}', '${typeName(f.type === 'map' ? f.mapValue! : f.type)}', ${flags}]`;
  });
  out.push(`  ${/^\w+$/.test(tableName(name)) ? tableName(name) : `'${tableName(name)}'`}: [${rows.join(', ')}],`);
}
const header = `// Generated by test/upstream/gen_protobuf_schema.ts from k8s.io/api and k8s.io/apimachinery v0.37.2
// (generated.proto, types.go): do not edit. The protobuf fields of the kinds request bodies may hold.

/** [field number, JSON name, type (a scalar or a message of this table), flags: 1 repeated, 2 map of string to the type, 4 kept when zero]. */
export type ProtoField = readonly [number, string, string, number];

export const protoMessages: Readonly<Record<string, readonly ProtoField[]>> = {
`;
const rootText = Object.entries(roots).map(([k, v]) => `  '${k}': '${tableName(rootMessage(v))}',`).join('\n');
writeFileSync('src/apiserver/protobuf_schema.ts', `${header}${out.join('\n')}\n};\n\n/** The message of a body's apiVersion/kind ("*" matches any apiVersion). */\nexport const protoRoots: Readonly<Record<string, string>> = {\n${rootText}\n};\n`);
console.log(`${reachable.size} messages`);
