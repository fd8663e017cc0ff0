// Strict decoding's unknown-field check (sigs.k8s.io/json UnmarshalStrict, as kube-apiserver's
// StrictSerializer runs it): every field at every depth must be one the kind's Go struct declares.
// The field names come from the pinned release's OpenAPI documents (api_fields.ts, generated).
import { kindStructs, structFields } from './api_fields.js';

/** The struct name a "<apiVersion>/<Kind>" decodes into, if we know the kind at that version. */
export function kindStruct(apiVersion: string, kind: string): string | undefined {
  return kindStructs[`${apiVersion}/${kind}`];
}

/**
 * The paths of the fields `value` carries that struct `root` does not declare, in document order,
 * written as the strict decoder writes them: "spec.containers[0].resources.reqests" (map keys as
 * ".key", list items as "[i]"). Values of the wrong type are decoding's business, not this check's.
 */
export function unknownFields(root: string, value: unknown): string[] {
  const out: string[] = [];
  walk(root, value, '', out, false);
  return out;
}

/** Deletes the fields unknownFields finds from `value` (in place), as decoding drops them; returns their paths. */
export function pruneUnknownFields(root: string, value: unknown): string[] {
  const out: string[] = [];
  walk(root, value, '', out, true);
  return out;
}

function walk(code: string, value: unknown, path: string, out: string[], prune: boolean): void {
  if (code === '' || value === null || typeof value !== 'object') return;
  if (code.startsWith('[]')) {
    if (!Array.isArray(value)) return;
    const of = code.slice(2);
    for (let i = 0; i < value.length; i++) walk(of, value[i], `${path}[${i}]`, out, prune);
    return;
  }
  if (Array.isArray(value)) return;
  const obj = value as Record<string, unknown>;
  if (code.startsWith('{}')) {
    const of = code.slice(2);
    for (const k of Object.keys(obj)) walk(of, obj[k], join(path, k), out, prune);
    return;
  }
  const fields = structFields[code];
  if (fields === undefined) return;
  for (const k of Object.keys(obj)) {
    const fieldCode = Object.hasOwn(fields, k) ? fields[k] : undefined;
    if (fieldCode !== undefined) {
      walk(fieldCode, obj[k], join(path, k), out, prune);
      continue;
    }
    out.push(join(path, k));
    if (prune) delete obj[k];
  }
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** Strict decoding's error text for the unknown fields found: "strict decoding error: unknown field "a", unknown field "b"". */
export function strictDecodingError(paths: readonly string[]): string {
  return `strict decoding error: ${paths.map((p) => `unknown field ${JSON.stringify(p)}`).join(', ')}`;
}
