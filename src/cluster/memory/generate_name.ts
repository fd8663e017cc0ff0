// Names from metadata.generateName as kube-apiserver makes them (apiserver/pkg/storage/names/
// generate.go) and retries them on a collision (registry/generic/registry/store.go,
// createWithGenerateNameRetry).

const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const suffixLength = 5;
/** The longest prefix kept, so that a generated name is a valid name (63 characters at most). */
const maxPrefixLength = 63 - suffixLength;
/** How many names a create tries before it fails with AlreadyExists (maxNameGenerationCreateAttempts). */
export const generateNameAttempts = 8;

/** `prefix` (cut to 58 characters) and five random characters of the API server's alphabet. */
export function generatedName(prefix: string, random: () => number): string {
  let name = prefix.length > maxPrefixLength ? prefix.slice(0, maxPrefixLength) : prefix;
  for (let i = 0; i < suffixLength; i++) name += alphabet[Math.floor(random() * alphabet.length)];
  return name;
}

/**
 * A generated name that `taken` says no object has, or, when all generateNameAttempts names
 * were taken, the last of them (the create then fails with AlreadyExists, as upstream's does).
 */
export function freeGeneratedName(prefix: string, random: () => number, taken: (name: string) => boolean): string {
  let name = generatedName(prefix, random);
  for (let attempt = 1; attempt < generateNameAttempts && taken(name); attempt++) name = generatedName(prefix, random);
  return name;
}
