// The secure endpoints over HTTPS on 127.0.0.1: self-signed serving certificate, delegated
// authentication (TokenReview, client certificates) and authorization (SubjectAccessReview).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as https from 'node:https';
import { FakeClock } from '../util/clock.js';
import { DelegatingAuthenticator, type ReviewPoster } from './authn.js';
import { DelegatingAuthorizer } from './authz.js';
import { SchedulerMetrics } from './metrics.js';
import { tlsServerOptions, withDelegatedAuth, type SecureServing } from './secure_serving.js';
import { endpointsHandler, serveEndpoints } from './server.js';
import { createCertificate, generateKeyPair, privateKeyPem, selfSignedServingCert } from './x509.js';

test('the self-signed serving certificate: signed by its own CA, for localhost and 127.0.0.1, valid from an hour ago for a year', () => {
  const now = Date.UTC(2030, 0, 2, 3, 4, 5);
  const ck = selfSignedServingCert('localhost', ['127.0.0.1'], ['scheduler.local'], now);
  const leaf = new X509Certificate(ck.cert);
  const ca = new X509Certificate(ck.ca);
  assert.equal(leaf.subject, `CN=localhost@${now / 1000}`);
  assert.equal(ca.subject, `CN=localhost-ca@${now / 1000}`);
  assert.ok(ca.ca && !leaf.ca);
  assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
  assert.equal(leaf.subjectAltName, 'DNS:localhost, DNS:scheduler.local, IP Address:127.0.0.1');
  assert.equal(leaf.checkIP('127.0.0.1'), '127.0.0.1');
  assert.deepEqual(leaf.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  assert.equal(new Date(leaf.validFrom).getTime(), now - 3600_000);
  assert.equal(new Date(leaf.validTo).getTime(), now - 3600_000 + 365 * 24 * 3600_000);
  assert.match(ck.key, /^-----BEGIN PRIVATE KEY-----/);
});

/** A client CA and certificates it signs (CN = user, O = groups). */
function clientPKI() {
  const caKeys = generateKeyPair();
  const caSubject = { commonName: 'client-ca' };
  const now = Date.now();
  const ca = createCertificate({ subject: caSubject, publicKey: caKeys.publicKey, privateKey: caKeys.privateKey, notBefore: now - 60_000, notAfter: now + 3600_000, isCA: true });
  const issue = (commonName: string, organizations: string[], issuer = { subject: caSubject, privateKey: caKeys.privateKey }) => {
    const keys = generateKeyPair();
    const cert = createCertificate({ subject: { commonName, organizations }, publicKey: keys.publicKey, issuer, notBefore: now - 60_000, notAfter: now + 3600_000, usages: ['clientAuth'] });
    return { cert, key: privateKeyPem(keys.privateKey) };
  };
  return { ca, issue };
}

/** The API server's side of the reviews: tokens it knows, and who may get /metrics. */
function fakeReviews() {
  const calls = { tokenReviews: 0, accessReviews: 0 };
  const users: Record<string, { username: string; groups: string[] }> = {
    'scraper-token': { username: 'system:serviceaccount:monitoring:prometheus', groups: ['system:serviceaccounts'] },
    'nosy-token': { username: 'nosy', groups: [] },
  };
  const tokenReviews: ReviewPoster = async (path, body) => {
    assert.equal(path, '/apis/authentication.k8s.io/v1/tokenreviews');
    calls.tokenReviews++;
    const token = (body as { spec: { token: string } }).spec.token;
    const user = users[token];
    return { kind: 'TokenReview', status: user ? { authenticated: true, user } : { authenticated: false } };
  };
  const accessReviews: ReviewPoster = async (path, body) => {
    assert.equal(path, '/apis/authorization.k8s.io/v1/subjectaccessreviews');
    calls.accessReviews++;
    const spec = (body as { spec: { user: string; groups: string[]; nonResourceAttributes: { path: string; verb: string } } }).spec;
    const allowed = spec.user === 'system:serviceaccount:monitoring:prometheus' && spec.nonResourceAttributes.verb === 'get' && spec.nonResourceAttributes.path === '/metrics';
    return { kind: 'SubjectAccessReview', status: allowed ? { allowed: true } : { allowed: false, reason: 'no RBAC policy matched' } };
  };
  return { calls, tokenReviews, accessReviews };
}

interface Reply {
  status: number;
  body: string;
}

function get(port: number, ca: string, path: string, o: { token?: string; cert?: { cert: string; key: string } } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1',
      port,
      path,
      ca,
      agent: false,
      headers: o.token !== undefined ? { Authorization: `Bearer ${o.token}` } : {},
      ...o.cert,
    }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('HTTPS with delegated authentication and authorization: health without credentials, /metrics for whom the API server allows', async () => {
  const clock = new FakeClock(0);
  const serving = selfSignedServingCert('localhost', ['127.0.0.1'], []);
  const pki = clientPKI();
  const reviews = fakeReviews();
  const secure: SecureServing = {
    cert: serving.cert,
    key: serving.key,
    clientCA: pki.ca,
    authenticator: new DelegatingAuthenticator({ tokenReviews: reviews.tokenReviews, clientCertificates: true, clock }),
    authorizer: new DelegatingAuthorizer({ accessReviews: reviews.accessReviews, clock }),
  };
  const metrics = new SchedulerMetrics();
  const server = await serveEndpoints('127.0.0.1', 0, withDelegatedAuth(endpointsHandler({ metrics }), secure), tlsServerOptions(secure));
  const stranger = clientPKI().issue('mallory', ['system:masters']);
  const cases: { name: string; path: string; token?: string; cert?: { cert: string; key: string }; want: number; body?: RegExp }[] = [
    { name: 'health without credentials', path: '/healthz', want: 200, body: /^ok$/ },
    { name: 'readiness without credentials', path: '/readyz', want: 200 },
    { name: 'liveness without credentials', path: '/livez', want: 200 },
    { name: 'a named check is not an always-allowed path', path: '/healthz/ping', want: 403 },
    { name: 'metrics for anonymous', path: '/metrics', want: 403, body: /"message":"forbidden: User \\"system:anonymous\\" cannot get path \\"\/metrics\\": no RBAC policy matched","reason":"Forbidden"/ },
    { name: 'metrics for an allowed token', path: '/metrics', token: 'scraper-token', want: 200, body: /scheduler_schedule_attempts_total|# HELP/ },
    { name: 'metrics for a token the API server does not allow', path: '/metrics', token: 'nosy-token', want: 403, body: /forbidden: User \\"nosy\\" cannot get path \\"\/metrics\\": no RBAC policy matched/ },
    { name: 'an unknown token', path: '/metrics', token: 'forged', want: 401, body: /"reason":"Unauthorized","code":401/ },
    { name: 'an unknown token, even for health', path: '/healthz', token: 'forged', want: 401 },
    { name: 'a bearer header without a token is no credential', path: '/healthz', token: '', want: 200 },
    { name: 'an empty token (two spaces)', path: '/healthz', token: ' x', want: 401 },
    { name: 'a client certificate in system:masters', path: '/metrics', cert: pki.issue('scraper', ['system:masters']), want: 200 },
    { name: 'a client certificate without a group that may', path: '/metrics', cert: pki.issue('carol', ['dev']), want: 403, body: /User \\"carol\\"/ },
    { name: 'a client certificate from another CA', path: '/metrics', cert: stranger, want: 401 },
  ];
  try {
    for (const c of cases) {
      const r = await get(server.port, serving.ca, c.path, { token: c.token, cert: c.cert });
      assert.equal(r.status, c.want, `${c.name}: ${r.body}`);
      if (c.body) assert.match(r.body, c.body, c.name);
    }
    // Answers are reused for 10s, then asked again.
    const before = { ...reviews.calls };
    await get(server.port, serving.ca, '/metrics', { token: 'scraper-token' });
    assert.deepEqual(reviews.calls, before, 'cached');
    clock.advance(10_000);
    await get(server.port, serving.ca, '/metrics', { token: 'scraper-token' });
    assert.deepEqual(reviews.calls, { tokenReviews: before.tokenReviews + 1, accessReviews: before.accessReviews + 1 });
  } finally {
    await server.close();
  }
});

test('authorization: prefixes in always-allowed paths; a review that fails is an error, not a decision; no review client denies', async () => {
  const clock = new FakeClock(0);
  const user = { name: 'u', groups: ['system:authenticated'] };
  const failing = new DelegatingAuthorizer({ accessReviews: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6443')), alwaysAllowPaths: ['/debug/*'], clock });
  assert.deepEqual(await failing.authorize(user, 'get', '/debug/pprof/heap'), { allowed: true });
  assert.deepEqual(await failing.authorize(user, 'get', '/metrics'), { error: 'connect ECONNREFUSED 127.0.0.1:6443' });
  const none = new DelegatingAuthorizer({ clock });
  assert.deepEqual(await none.authorize(user, 'get', '/metrics'), { allowed: false, reason: '' });
  assert.deepEqual(await none.authorize(user, 'get', '/readyz'), { allowed: true });
});
