// Semantic versions as Kubernetes' CEL semver library reads them (github.com/blang/semver/v4,
// used by k8s.io/apiserver/pkg/cel/library/semverlib.go): strict MAJOR.MINOR.PATCH with optional
// pre-release and build parts, compared by precedence.

const NUMERIC = /^(0|[1-9][0-9]*)$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;

/** A parsed semantic version (the CEL `Semver` type and DRA `version` attributes). */
export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly string[],
    readonly build: readonly string[],
  ) {}

  compare(other: Semver): -1 | 0 | 1 {
    if (this.major !== other.major) return this.major < other.major ? -1 : 1;
    if (this.minor !== other.minor) return this.minor < other.minor ? -1 : 1;
    if (this.patch !== other.patch) return this.patch < other.patch ? -1 : 1;
    // A release ranks above any of its pre-releases.
    if (this.pre.length === 0) return other.pre.length === 0 ? 0 : 1;
    if (other.pre.length === 0) return -1;
    const n = Math.min(this.pre.length, other.pre.length);
    for (let i = 0; i < n; i++) {
      const c = comparePrerelease(this.pre[i]!, other.pre[i]!);
      if (c !== 0) return c;
    }
    return this.pre.length === other.pre.length ? 0 : this.pre.length < other.pre.length ? -1 : 1;
  }

  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre.length > 0) s += `-${this.pre.join('.')}`;
    if (this.build.length > 0) s += `+${this.build.join('.')}`;
    return s;
  }
}

function comparePrerelease(a: string, b: string): -1 | 0 | 1 {
  const aNum = NUMERIC.test(a);
  const bNum = NUMERIC.test(b);
  if (aNum && bNum) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  // Numeric identifiers rank below alphanumeric ones.
  if (aNum) return -1;
  if (bNum) return 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

export class SemverError extends Error {}

/** semver.Parse: the error text is blang/semver's. */
export function parseSemver(input: string): Semver {
  if (input.length === 0) throw new SemverError('Version string empty');
  let rest = input;
  let build: string[] = [];
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    build = rest.slice(plus + 1).split('.');
    rest = rest.slice(0, plus);
    for (const id of build) {
      if (id.length === 0) throw new SemverError('Build meta data is empty');
      if (!IDENTIFIER.test(id)) throw new SemverError(`Invalid character(s) found in build meta data ${JSON.stringify(id)}`);
    }
  }
  let pre: string[] = [];
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    pre = rest.slice(dash + 1).split('.');
    rest = rest.slice(0, dash);
    for (const id of pre) {
      if (id.length === 0) throw new SemverError('Prerelease is empty');
      if (!IDENTIFIER.test(id)) throw new SemverError(`Invalid character(s) found in prerelease ${JSON.stringify(id)}`);
      if (/^[0-9]+$/.test(id) && !NUMERIC.test(id)) throw new SemverError(`Version component must not contain leading zeros ${JSON.stringify(id)}`);
    }
  }
  const parts = rest.split('.');
  if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
  const names = ['major', 'minor', 'patch'];
  const nums = parts.map((p, i) => {
    if (!/^[0-9]+$/.test(p)) throw new SemverError(`Invalid character(s) found in ${names[i]} number ${JSON.stringify(p)}`);
    if (!NUMERIC.test(p)) throw new SemverError(`${names[i]![0]!.toUpperCase()}${names[i]!.slice(1)} number must not contain leading zeroes ${JSON.stringify(p)}`);
    return BigInt(p);
  });
  return new Semver(nums[0]!, nums[1]!, nums[2]!, pre, build);
}

/** semver(s, true): a leading "v" dropped, missing minor/patch filled with 0, leading zeros dropped. */
export function parseSemverNormalized(input: string): Semver {
  let s = input.startsWith('v') ? input.slice(1) : input;
  let suffix = '';
  const cut = s.search(/[-+]/);
  if (cut >= 0) {
    suffix = s.slice(cut);
    s = s.slice(0, cut);
  }
  const parts = s.split('.');
  while (parts.length < 3) parts.push('0');
  const core = parts.map((p) => (/^[0-9]+$/.test(p) ? p.replace(/^0+(?=[0-9])/, '') : p));
  return parseSemver(core.join('.') + suffix);
}
