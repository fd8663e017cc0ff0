import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createCertificate, generateKeyPair, privateKeyPem, selfSignedServingCert } from '../../metrics/x509.js';
import { HttpTransport, loadKubeConfig } from './rest.js';
import { TlsChannels } from './tls_contexts.js';

/** A client CA and certificates it issues. */
function clientPKI() {
  const now = Date.now();
  const caKeys = generateKeyPair();
  const caSubject = { commonName: 'client-ca' };
  const ca = createCertificate({ subject: caSubject, publicKey: caKeys.publicKey, privateKey: caKeys.privateKey, notBefore: now - 60_000, notAfter: now + 3600_000, isCA: true });
  const issue = (commonName: string) => {
    const keys = generateKeyPair();
    const cert = createCertificate({ subject: { commonName }, publicKey: keys.publicKey, issuer: { subject: caSubject, privateKey: caKeys.privateKey }, notBefore: now - 60_000, notAfter: now + 3600_000, usages: ['clientAuth'] });
    return { cert, key: privateKeyPem(keys.privateKey) };
  };
  return { ca, issue };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('over TLS, the transport verifies the server, presents its client certificate and reuses its connections', async () => {
  const serving = selfSignedServingCert('127.0.0.1', [], []);
  const pki = clientPKI();
  const alice = pki.issue('alice');
  let connections = 0;
  const server = https.createServer({ cert: serving.cert, key: serving.key, ca: pki.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user: peer.subject.CN }));
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'kst-tls-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: "${b64(serving.ca)}"}
users:
- name: u
  user: {client-certificate-data: "${b64(alice.cert)}", client-key-data: "${b64(alice.key)}"}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`);
  const transport = new HttpTransport(loadKubeConfig(kubeconfig));
  try {
    for (let i = 0; i < 20; i++) assert.deepEqual(await transport.request({ method: 'GET', path: '/api/v1/namespaces' }), { user: 'alice' });
    assert.equal(connections, 1, 'one request at a time: one connection');
    const answers = await Promise.all(Array.from({ length: 8 }, () => transport.request({ method: 'GET', path: '/api/v1/nodes' })));
    assert.ok(answers.every((a) => (a as { user: string }).user === 'alice'));
    assert.ok(connections <= 8, `eight at once: at most seven more connections (${connections})`);
  } finally {
    transport.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('TLS channels: one context and pool while the material stays, a new one when it changes', () => {
  const pki = clientPKI();
  const alice = pki.issue('alice');
  const bob = pki.issue('bob');
  const channels = new TlsChannels({ keepAlive: true });
  const first = channels.channelFor({ ca: Buffer.from(pki.ca), cert: Buffer.from(alice.cert), key: Buffer.from(alice.key) });
  // The kubeconfig hands out new Buffers each time: the same content is the same material.
  assert.equal(channels.channelFor({ ca: Buffer.from(pki.ca), cert: Buffer.from(alice.cert), key: Buffer.from(alice.key) }), first);
  const rotated = channels.channelFor({ ca: Buffer.from(pki.ca), cert: Buffer.from(bob.cert), key: Buffer.from(bob.key) });
  assert.notEqual(rotated, first);
  assert.notEqual(rotated.agent, first.agent);
  assert.notEqual(rotated.secureContext, first.secureContext);
  assert.equal(first.agent.maxFreeSockets, 0, 'the old pool keeps no connection once its requests are done');
  assert.notEqual(channels.channelFor({ ca: [Buffer.from(pki.ca)], cert: Buffer.from(bob.cert), key: Buffer.from(bob.key) }), rotated, 'a CA list is other material than one CA');
  channels.destroy();
});
