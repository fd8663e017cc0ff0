// A Pod or Node list's JSON text without its items' metadata.managedFields, cut before the text is
// parsed: the scheduler's informers drop them anyway (reflector.ts), and they are over a quarter of
// the lists' text and more of their objects, which the start's garbage collections then copy (at
// 5,000 nodes and 2,000 pods 2.3 MB of 8.3 MB). Relies on what the API server's encoder writes: ObjectMeta's fields in their
// declared order, managedFields last, and a Pod's or Node's spec right after its metadata. Inside a
// JSON string a quote is always escaped, so `,"` never occurs in one and both markers below match
// structure only; managedFields' own keys (manager, fieldsV1, ...) and FieldsV1's (f:..., k:...,
// v:..., i:..., ".") never are "spec". Any text that does not fit is returned whole (the
// informer's trim still applies).

/** The field as it follows another of the metadata's fields. */
const fieldStart = ',"managedFields":[';
/** Its list's end, the metadata's end, and the spec's key. */
const metadataEnd = ']},"spec":';

export function listTextWithoutManagedFields(text: string): string {
  const starts: number[] = [];
  for (let at = text.indexOf(fieldStart); at >= 0; at = text.indexOf(fieldStart, at + fieldStart.length)) starts.push(at);
  if (starts.length === 0) return text;
  let out = '';
  let from = 0;
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    const end = text.indexOf(metadataEnd, start + fieldStart.length);
    // An item without a spec after its managedFields (not what the API server writes): the next
    // metadata end would be another item's.
    if (end < 0 || (k + 1 < starts.length && end > starts[k + 1]!)) return text;
    out += text.slice(from, start);
    from = end + 1;
  }
  return out + text.slice(from);
}
