// The names controllers derive from hashes: FNV-1a (32 bit, hash/fnv) printed in decimal and passed
// through rand.SafeEncodeString (k8s.io/apimachinery/pkg/util/rand/rand.go).

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** SafeEncodeString: each character's code (not its digit value) picks a letter of the alphabet. */
function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length]!;
  return out;
}

function fnv32a(h: number, bytes: Uint8Array): number {
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * SafeEncodeString(fmt.Sprint(fnv32a(text's UTF-8 bytes [+ suffix]))); `suffix` is what the caller
 * hashes after the text (ComputeHash's collision count).
 */
export function safeHash(text: string, suffix?: Uint8Array): string {
  let h = fnv32a(0x811c9dc5, new TextEncoder().encode(text));
  if (suffix !== undefined) h = fnv32a(h, suffix);
  return safeEncodeString(String(h));
}
