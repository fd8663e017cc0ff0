// The HTTP transport: timeout and TLS settings from the extender configuration (extender.go
// makeTransport, NewHTTPExtender), and one round trip against a real server on the loopback.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Extender as ExtenderConfig } from '../config/types.js';
import { NodeInfo } from '../framework/node_info.js';
import { makeNode, makePod } from '../testing/builders.js';
import { HttpExtender } from './http_extender.js';
import { DefaultExtenderTimeoutNanos, extenderTimeoutNanos, httpTransport, tlsOptionsFor } from './transport.js';
import type { ExtenderArgs, ExtenderBindingArgs, ExtenderFilterResult, HostPriorityList } from './wire.js';

const prefix = 'https://extender.test';
const cfg = (o: Partial<ExtenderConfig> = {}): ExtenderConfig => ({ urlPrefix: prefix, ...o });
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A self-signed CA certificate made for these tests (public data, its key was discarded). */
const testCA = `-----BEGIN CERTIFICATE-----
MIIBjTCCATOgAwIBAgIUBNdNy3ufnJf3Hk2w1wqs31bDlRAwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQZXh0ZW5kZXItdGVzdC1jYTAgFw0yNjExMjMwOTE2MjlaGA8y
MTI2MTAzMDA5MTYyOVowGzEZMBcGA1UEAwwQZXh0ZW5kZXItdGVzdC1jYTBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABN6CMydzPy+Hjtt5gXV9BQj8cPv+OWjPwLI3
uUHCKqHCayIq38MpOv9siJqqUKqSP06Xm1a1laxqIYutj7pNHN2jUzBRMB0GA1Ud
DgQWBBRUWmGnY1iZZTDXcoiHxWE3iIobYTAfBgNVHSMEGDAWgBRUWmGnY1iZZTDX
coiHxWE3iIobYTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDx
nuY9Hc0C9pOWEOgPw5ZLAUulGFXPNp22JJmEJftYngIgI4zXOapVawqgxPwsoqUd
smmlP+B9Atd+E0aWkeXUDdc=
-----END CERTIFICATE-----
`;

describe('extenderTimeoutNanos', () => {
  const cases: { name: string; httpTimeout?: string; want: number | null }[] = [
    { name: 'unset takes the 5s default', want: DefaultExtenderTimeoutNanos },
    { name: 'zero takes the 5s default', httpTimeout: '0s', want: 5e9 },
    { name: 'a Go duration', httpTimeout: '1m30s', want: 90e9 },
    { name: 'a negative duration means no timeout, as for Go http.Client', httpTimeout: '-1s', want: null },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(extenderTimeoutNanos(cfg({ httpTimeout: c.httpTimeout })), c.want));
  }

  it('names the extender when the duration does not parse', () => {
    assert.throws(() => extenderTimeoutNanos(cfg({ httpTimeout: '5 seconds' })), {
      message: `extender ${prefix}: httpTimeout: time: unknown unit " seconds" in duration "5 seconds"`,
    });
  });
});

describe('tlsOptionsFor', () => {
  it('asks for nothing without TLS settings', () => {
    assert.equal(tlsOptionsFor(cfg()), null);
  });

  it('does not verify an HTTPS extender when no CA is given', () => {
    assert.deepEqual(tlsOptionsFor(cfg({ enableHTTPS: true })), { rejectUnauthorized: false });
  });

  it('verifies against the given CA, with the given server name', () => {
    const opts = tlsOptionsFor(cfg({ enableHTTPS: true, tlsConfig: { caData: b64(testCA), serverName: 'ext.internal' } }));
    assert.equal(opts?.rejectUnauthorized, true);
    assert.equal(opts?.servername, 'ext.internal');
    assert.equal(String(opts?.ca), testCA);
  });

  const failures: { name: string; tls: ExtenderConfig['tlsConfig']; want: RegExp }[] = [
    {
      name: 'a CA together with insecure',
      tls: { insecure: true, caData: b64(testCA) },
      want: /specifying a root certificates file with the insecure flag is not allowed/,
    },
    { name: 'CA data that is not PEM', tls: { caData: b64('not a certificate') }, want: /unable to load root certificates: unable to parse bytes as PEM block/ },
    {
      name: 'a CA certificate that does not parse',
      tls: { caData: b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') },
      want: /unable to load root certificates: failed to parse certificate: /,
    },
    { name: 'PEM without a certificate', tls: { caData: b64('-----BEGIN THING-----\nAAAA\n-----END THING-----\n') }, want: /no valid certificate authority data seen/ },
    { name: 'a client certificate and key that do not load', tls: { certData: b64('junk'), keyData: b64('junk') }, want: /loading the client certificate and key: / },
    { name: 'a CA file that cannot be read', tls: { caFile: '/nonexistent/ca.pem' }, want: /reading tlsConfig\.caFile: ENOENT/ },
  ];
  for (const c of failures) {
    it(`fails at construction on ${c.name}, naming the extender`, () => {
      assert.throws(() => tlsOptionsFor(cfg({ tlsConfig: c.tls })), (err: Error) => {
        assert.ok(err.message.startsWith(`extender ${prefix}: `), err.message);
        assert.match(err.message, c.want);
        return true;
      });
      assert.throws(() => new HttpExtender(cfg({ filterVerb: 'filter', tlsConfig: c.tls })), c.want);
    });
  }
});

describe('httpTransport', () => {
  it('carries filter, prioritize and bind to a real extender on the loopback', async () => {
    const seen: { path: string; contentType: string | undefined; body: unknown }[] = [];
    const answers: Record<string, unknown> = {
      '/scheduler/filter': { Nodes: null, NodeNames: ['n2'], FailedNodes: { n1: 'no gpu' }, Error: '' } satisfies ExtenderFilterResult,
      '/scheduler/prioritize': [{ Host: 'n2', Score: 9 }] satisfies HostPriorityList,
      '/scheduler/bind': { Error: '' },
    };
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        const answer = answers[req.url ?? ''];
        res.writeHead(answer === undefined ? 404 : 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer ?? {}));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const config = cfg({
        urlPrefix: `http://127.0.0.1:${port}/scheduler`,
        filterVerb: 'filter',
        prioritizeVerb: 'prioritize',
        weight: 2,
        bindVerb: 'bind',
        nodeCacheCapable: true,
      });
      const ext = new HttpExtender(config, httpTransport(config));
      const pod = makePod('p', { uid: 'uid-p' });
      const nodes = [new NodeInfo(makeNode('n1')), new NodeInfo(makeNode('n2'))];

      const filtered = await ext.filter(pod, nodes);
      assert.ok(filtered.feasible.length === 1 && filtered.feasible[0] === nodes[1]);
      assert.deepEqual(filtered.failed, { n1: 'no gpu' });
      assert.deepEqual(await ext.prioritize(pod, filtered.feasible), { scores: [{ host: 'n2', score: 9 }], weight: 2 });
      await ext.bind({ podName: 'p', podNamespace: 'default', podUID: 'uid-p', node: 'n2' });

      const args: ExtenderArgs = { Pod: pod, Nodes: null, NodeNames: ['n1', 'n2'] };
      const binding: ExtenderBindingArgs = { PodName: 'p', PodNamespace: 'default', PodUID: 'uid-p', Node: 'n2' };
      assert.deepEqual(seen, [
        { path: '/scheduler/filter', contentType: 'application/json', body: args },
        { path: '/scheduler/prioritize', contentType: 'application/json', body: { ...args, NodeNames: ['n2'] } },
        { path: '/scheduler/bind', contentType: 'application/json', body: binding },
      ]);
    } finally {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    }
  });
});
