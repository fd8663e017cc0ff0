// X.509 certificates made in memory, for serving HTTPS without certificate files: a self-signed CA and
// a serving certificate it signs (k8s.io/client-go/util/cert GenerateSelfSignedCertKeyWithFixtures,
// used by SecureServingOptions.MaybeDefaultWithSelfSignedCerts). Node's crypto makes and uses keys
// but cannot write a certificate, so this encodes the few DER structures RFC 5280 needs.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

// ---- DER (ITU-T X.690), only the types a certificate uses ----

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, value: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(value.length), value]);
const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));

/** A non-negative integer from big-endian bytes (a leading zero keeps it positive). */
function unsignedInteger(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const v = bytes.subarray(i);
  return tlv(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A BIT STRING of flags numbered from the most significant bit, with its trailing zero bits trimmed. */
function flagBits(bits: readonly number[]): Buffer {
  const last = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1);
  for (const b of bits) bytes[Math.floor(b / 8)]! |= 0x80 >> (b % 8);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (last % 8)]), bytes]));
}

const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return Number(iso.slice(0, 4)) < 2050 ? tlv(0x17, Buffer.from(digits.slice(2))) : tlv(0x18, Buffer.from(digits));
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

// ---- certificates ----

const ecdsaWithSHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const oids = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};
const keyUsageBits = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5 };

interface Subject {
  readonly commonName: string;
  /** Organizations: a client certificate's groups, as Kubernetes reads them. */
  readonly organizations?: readonly string[];
}

export interface CertificateRequest {
  readonly subject: Subject;
  /** The key the certificate is for. */
  readonly publicKey: KeyObject;
  /** The issuer and its key; the certificate signs itself when absent. */
  readonly issuer?: { readonly subject: Subject; readonly privateKey: KeyObject };
  /** The signing key of a self-signed certificate. */
  readonly privateKey?: KeyObject;
  readonly notBefore: number;
  readonly notAfter: number;
  readonly isCA?: boolean;
  readonly usages?: readonly ('serverAuth' | 'clientAuth')[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

function name(s: Subject): Buffer {
  const rdns = [set(sequence(oid(oids.commonName), utf8(s.commonName)))];
  for (const o of s.organizations ?? []) rdns.push(set(sequence(oid(oids.organization), utf8(o))));
  return sequence(...rdns);
}

const extension = (id: string, critical: boolean, value: Buffer): Buffer => sequence(oid(id), ...(critical ? [bool(true)] : []), octets(value));

/** A DER certificate for the request, as PEM. */
export function createCertificate(r: CertificateRequest): string {
  const signer = r.issuer?.privateKey ?? r.privateKey;
  if (!signer) throw new Error('a certificate needs an issuer key or, self-signed, its own private key');
  const extensions = [
    extension(oids.keyUsage, true, flagBits(r.isCA ? [keyUsageBits.digitalSignature, keyUsageBits.keyEncipherment, keyUsageBits.keyCertSign] : [keyUsageBits.digitalSignature, keyUsageBits.keyEncipherment])),
    extension(oids.basicConstraints, true, r.isCA ? sequence(bool(true)) : sequence()),
  ];
  if (r.usages?.length) extensions.push(extension(oids.extKeyUsage, false, sequence(...r.usages.map((u) => oid(oids[u])))));
  const altNames = [...(r.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d, 'ascii'))), ...(r.ipAddresses ?? []).map((ip) => tlv(0x87, ipBytes(ip)))];
  if (altNames.length > 0) extensions.push(extension(oids.subjectAltName, false, sequence(...altNames)));
  const tbs = sequence(
    explicit(0, tlv(0x02, Buffer.from([2]))),
    unsignedInteger(randomBytes(16)),
    ecdsaWithSHA256,
    name(r.issuer?.subject ?? r.subject),
    sequence(time(r.notBefore), time(r.notAfter)),
    name(r.subject),
    r.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions)),
  );
  const der = sequence(tbs, ecdsaWithSHA256, bitString(sign('sha256', tbs, signer)));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${b64.trimEnd()}\n-----END CERTIFICATE-----\n`;
}

export interface KeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** An ECDSA P-256 key pair (quick to make, accepted by every TLS client that matters). */
export function generateKeyPair(): KeyPair {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

export const privateKeyPem = (k: KeyObject): string => k.export({ type: 'pkcs8', format: 'pem' }).toString();

export interface CertKey {
  /** PEM: the serving certificate followed by the CA that signed it. */
  readonly cert: string;
  readonly key: string;
  /** PEM of the CA alone, for clients that want to trust it. */
  readonly ca: string;
}

const year = 365 * 24 * 3600 * 1000;

/**
 * A CA named `<host>-ca@<unix time>` and a serving certificate `<host>@<unix time>` it signs, valid
 * from an hour ago for a year, for `host` and the alternate names and addresses.
 */
export function selfSignedServingCert(host: string, alternateIPs: readonly string[], alternateDNS: readonly string[], now = Date.now()): CertKey {
  const unix = Math.floor(now / 1000);
  const notBefore = now - 3600 * 1000;
  const caKeys = generateKeyPair();
  const caSubject = { commonName: `${host}-ca@${unix}` };
  const ca = createCertificate({ subject: caSubject, publicKey: caKeys.publicKey, privateKey: caKeys.privateKey, notBefore, notAfter: notBefore + year, isCA: true });
  const keys = generateKeyPair();
  const ips = [...alternateIPs];
  const dns = [...alternateDNS];
  if (isIP(host)) ips.unshift(host);
  else dns.unshift(host);
  const cert = createCertificate({
    subject: { commonName: `${host}@${unix}` },
    publicKey: keys.publicKey,
    issuer: { subject: caSubject, privateKey: caKeys.privateKey },
    notBefore,
    notAfter: notBefore + year,
    usages: ['serverAuth'],
    dnsNames: dns,
    ipAddresses: ips,
  });
  return { cert: cert + ca, key: privateKeyPem(keys.privateKey), ca };
}

