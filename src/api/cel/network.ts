// Kubernetes' IP and CIDR CEL libraries (k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go),
// with addresses parsed and printed as Go's net/netip does, error texts included.
import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../labels.js';
import { CelLibraryError } from './libraries.js';

/** An address: 4 or 16 bytes, and an IPv6 zone (only ever seen by the parser here). */
export class IPAddress {
  constructor(
    readonly bytes: Uint8Array,
    readonly zone = '',
  ) {}

  get is4(): boolean {
    return this.bytes.length === 4;
  }

  /** An IPv4 address written as IPv6 (::ffff:a.b.c.d). */
  get is4In6(): boolean {
    const b = this.bytes;
    if (b.length !== 16) return false;
    for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
    return b[10] === 0xff && b[11] === 0xff;
  }

  /** The plain IPv4 address of an IPv4-mapped one (netip's Unmap). */
  unmap(): IPAddress {
    return this.is4In6 ? new IPAddress(this.bytes.slice(12)) : this;
  }

  equals(other: IPAddress): boolean {
    return this.zone === other.zone && this.bytes.length === other.bytes.length && this.bytes.every((b, i) => b === other.bytes[i]);
  }

  toString(): string {
    if (this.is4) return this.bytes.join('.');
    const zone = this.zone === '' ? '' : `%${this.zone}`;
    if (this.is4In6) return `::ffff:${this.bytes.slice(12).join('.')}${zone}`;
    return ipv6Text(this.bytes) + zone;
  }
}

/** RFC 5952 text: lower-case groups, the longest run of two or more zero groups as `::`. */
function ipv6Text(b: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength && j - i >= 2) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (g: number[]): string => g.map((v) => v.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/** A network: an address and a prefix length, the address kept unmasked as netip.Prefix does. */
export class CIDRNetwork {
  constructor(
    readonly address: IPAddress,
    readonly bits: number,
  ) {}

  masked(): CIDRNetwork {
    const bytes = this.address.bytes.slice();
    for (let i = 0; i < bytes.length; i++) {
      const keep = Math.max(0, Math.min(8, this.bits - 8 * i));
      bytes[i] = bytes[i]! & ((0xff << (8 - keep)) & 0xff);
    }
    return new CIDRNetwork(new IPAddress(bytes), this.bits);
  }

  /** Whether the first `bits` bits of `ip` are this network's (netip.Prefix.Contains). */
  contains(ip: IPAddress): boolean {
    if (ip.zone !== '' || ip.bytes.length !== this.address.bytes.length) return false;
    return samePrefix(this.address.bytes, ip.bytes, this.bits);
  }

  /** netip.Prefix.Overlaps: the two share their shorter prefix. */
  overlaps(other: CIDRNetwork): boolean {
    if (other.address.bytes.length !== this.address.bytes.length) return false;
    return samePrefix(this.address.bytes, other.address.bytes, Math.min(this.bits, other.bits));
  }

  equals(other: CIDRNetwork): boolean {
    return this.bits === other.bits && this.address.equals(other.address);
  }

  toString(): string {
    return `${this.address.toString()}/${this.bits}`;
  }
}

function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  for (let i = 0; i < a.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((a[i]! & mask) !== (b[i]! & mask)) return false;
  }
  return true;
}

/** netip's parse error text. */
class AddrParseError extends Error {
  constructor(input: string, msg: string, at = '') {
    super(`ParseAddr(${goQuote(input)}): ${msg}${at === '' ? '' : ` (at ${goQuote(at)})`}`);
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** netip's parseIPv4Fields: four dotted decimal octets, no leading zeros, into `out` at `at`. */
function parseIPv4Fields(input: string, start: number, end: number, out: Uint8Array, at: number): void {
  const s = input.slice(start, end);
  let value = 0;
  let field = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (isDigit(c)) {
      if (digits === 1 && value === 0) throw new AddrParseError(input, 'IPv4 field has octet with leading zero');
      value = value * 10 + Number(c);
      digits++;
      if (value > 255) throw new AddrParseError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw new AddrParseError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (field === 3) throw new AddrParseError(input, 'IPv4 address too long');
      out[at + field++] = value;
      value = 0;
      digits = 0;
    } else {
      throw new AddrParseError(input, 'unexpected character', s.slice(i));
    }
  }
  if (field < 3) throw new AddrParseError(input, 'IPv4 address too short');
  out[at + 3] = value;
}

function hexValue(c: string | undefined): number {
  if (c === undefined) return -1;
  const v = parseInt(c, 16);
  return Number.isNaN(v) ? -1 : v;
}

/** netip's parseIPv6: groups, one `::`, an optional embedded IPv4 and an optional zone. */
function parseIPv6(input: string): IPAddress {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent >= 0) {
    [s, zone] = [s.slice(0, percent), s.slice(percent + 1)];
    if (zone === '') throw new AddrParseError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return new IPAddress(ip, zone);
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const v = hexValue(s[off]);
      if (v < 0) break;
      acc = acc * 16 + v;
      if (off > 3) throw new AddrParseError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw new AddrParseError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw new AddrParseError(input, 'each colon-separated field must have at least one digit', s);
    if (s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw new AddrParseError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw new AddrParseError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone === '' ? 0 : zone.length + 1);
      parseIPv4Fields(input, end - s.length, end, ip, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw new AddrParseError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw new AddrParseError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw new AddrParseError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw new AddrParseError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw new AddrParseError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw new AddrParseError(input, 'the :: must expand to at least one field of zeros');
  }
  return new IPAddress(ip, zone);
}

/** netip.ParseAddr. */
export function parseAddr(s: string): IPAddress {
  for (const c of s) {
    if (c === '.') {
      const ip = new Uint8Array(4);
      parseIPv4Fields(s, 0, s.length, ip, 0);
      return new IPAddress(ip);
    }
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw new AddrParseError(s, 'missing IPv6 address');
  }
  throw new AddrParseError(s, 'unable to parse IP');
}

/** netip.ParsePrefix. */
export function parsePrefix(s: string): CIDRNetwork {
  const fail = (msg: string): Error => new Error(`netip.ParsePrefix(${goQuote(s)}): ${msg}`);
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw fail("no '/'");
  let ip: IPAddress;
  try {
    ip = parseAddr(s.slice(0, slash));
  } catch (err) {
    throw fail((err as Error).message);
  }
  if (!ip.is4 && ip.zone !== '') throw fail('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  if ((bitsText.length > 1 && !(bitsText[0]! >= '1' && bitsText[0]! <= '9')) || !/^[+-]?\d+$/.test(bitsText)) {
    throw fail(`bad bits after slash: ${goQuote(bitsText)}`);
  }
  const bits = Number(bitsText);
  if (bits < 0 || bits > (ip.is4 ? 32 : 128)) throw fail('prefix length out of range');
  return new CIDRNetwork(ip, bits);
}

/** ip.go's parseIPAddr: netip's parse without zones or IPv4-mapped IPv6 addresses. */
function ipOf(raw: string): IPAddress {
  let addr: IPAddress;
  try {
    addr = parseAddr(raw);
  } catch (err) {
    throw new CelLibraryError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${(err as Error).message}`);
  }
  if (addr.zone !== '') throw new CelLibraryError(`IP address ${goQuote(raw)} with zone value is not allowed`);
  if (addr.is4In6) throw new CelLibraryError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return addr;
}

/** cidr.go's parseCIDR and stringToCIDR, whose prefixes the error text repeats as upstream's does. */
function cidrOf(raw: string): CIDRNetwork {
  const wrap = 'network address parse error during conversion from string: ';
  let net: CIDRNetwork;
  try {
    net = parsePrefix(raw);
  } catch (err) {
    throw new CelLibraryError(`${wrap}${wrap}${(err as Error).message}`);
  }
  if (net.address.is4In6) throw new CelLibraryError(`${wrap}IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return net;
}

function succeeds(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

function isLoopback(ip: IPAddress): boolean {
  const a = ip.unmap();
  if (a.is4) return a.bytes[0] === 127;
  return a.bytes.every((b, i) => b === (i === 15 ? 1 : 0));
}

function isUnspecified(ip: IPAddress): boolean {
  return ip.bytes.every((b) => b === 0);
}

function isLinkLocalUnicast(ip: IPAddress): boolean {
  const a = ip.unmap();
  if (a.is4) return a.bytes[0] === 169 && a.bytes[1] === 254;
  return a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80;
}

function isMulticast(ip: IPAddress): boolean {
  const a = ip.unmap();
  return a.is4 ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff;
}

function isLinkLocalMulticast(ip: IPAddress): boolean {
  const a = ip.unmap();
  if (a.is4) return a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0;
  return a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02;
}

function isGlobalUnicast(ip: IPAddress): boolean {
  const a = ip.unmap();
  if (a.is4 && (isUnspecified(a) || a.bytes.every((b) => b === 255))) return false;
  return !isUnspecified(a) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

class IPNamespace {}

const IP = 'net.IP';
const CIDR = 'net.CIDR';

/** Registers the IP and CIDR libraries (apiserver's types net.IP and net.CIDR). */
export function registerNetworkLibraries(env: Environment): Environment {
  return (
    env
      .registerType(IP, IPAddress)
      .registerType(CIDR, CIDRNetwork)
      .registerOperator(`${IP} == ${IP}`, (a: IPAddress, b: IPAddress) => a.equals(b))
      .registerOperator(`${CIDR} == ${CIDR}`, (a: CIDRNetwork, b: CIDRNetwork) => a.equals(b))
      // ip.go
      .registerFunction(`ip(string): ${IP}`, ipOf)
      .registerFunction('isIP(string): bool', (s: string) => succeeds(() => ipOf(s)))
      // ip.isCanonical is a dotted global name; cel-js reads it as a method of a constant `ip`.
      .registerType('net.IPNamespace', IPNamespace)
      .registerConstant('ip', 'net.IPNamespace', new IPNamespace())
      .registerFunction('net.IPNamespace.isCanonical(string): bool', (_: IPNamespace, s: string) => ipOf(s).toString() === s)
      .registerFunction(`${IP}.family(): int`, (ip: IPAddress) => (ip.is4 ? 4n : 6n))
      .registerFunction(`${IP}.isUnspecified(): bool`, isUnspecified)
      .registerFunction(`${IP}.isLoopback(): bool`, isLoopback)
      .registerFunction(`${IP}.isLinkLocalMulticast(): bool`, isLinkLocalMulticast)
      .registerFunction(`${IP}.isLinkLocalUnicast(): bool`, isLinkLocalUnicast)
      .registerFunction(`${IP}.isGlobalUnicast(): bool`, isGlobalUnicast)
      .registerFunction(`string(${IP}): string`, (ip: IPAddress) => ip.toString())
      // cidr.go
      .registerFunction(`cidr(string): ${CIDR}`, cidrOf)
      .registerFunction('isCIDR(string): bool', (s: string) => succeeds(() => cidrOf(s)))
      .registerFunction(`${CIDR}.containsIP(string): bool`, (net: CIDRNetwork, s: string) => net.contains(ipOf(s)))
      .registerFunction(`${CIDR}.containsIP(${IP}): bool`, (net: CIDRNetwork, ip: IPAddress) => net.contains(ip))
      .registerFunction(`${CIDR}.containsCIDR(string): bool`, (net: CIDRNetwork, s: string) => containsCIDR(net, cidrOf(s)))
      .registerFunction(`${CIDR}.containsCIDR(${CIDR}): bool`, containsCIDR)
      .registerFunction(`${CIDR}.ip(): ${IP}`, (net: CIDRNetwork) => net.address)
      .registerFunction(`${CIDR}.prefixLength(): int`, (net: CIDRNetwork) => BigInt(net.bits))
      .registerFunction(`${CIDR}.masked(): ${CIDR}`, (net: CIDRNetwork) => net.masked())
      .registerFunction(`string(${CIDR}): string`, (net: CIDRNetwork) => net.toString())
  );
}

function containsCIDR(net: CIDRNetwork, other: CIDRNetwork): boolean {
  return net.overlaps(other) && net.bits <= other.bits;
}
