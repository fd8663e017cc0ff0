// One TLS context and connection pool per set of client TLS material, reused while the kubeconfig
// hands out the same material (as Go's transport cache in client-go's transport/cache.go keys
// its transports by TLS configuration). node's https.Agent otherwise parses the CA, certificate
// and key again for every connection it opens (tls.createSecureContext, ~0.3 ms), and names its
// pools by the material's text, which it builds for every request.
import * as https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';

/** The TLS material of one request, as KubeConfig.applyToHTTPSOptions fills it. */
export type TlsMaterial = Pick<https.RequestOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase'>;

/** What a request needs to connect with `material`. */
export interface TlsChannel {
  readonly agent: https.Agent;
  readonly secureContext: SecureContext;
}

/** Whether two values of a TLS option are the same material (Buffers by content). */
function sameOption(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameOption(x, b[i]));
  return false;
}

function sameMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  return sameOption(a.ca, b.ca) && sameOption(a.cert, b.cert) && sameOption(a.key, b.key) && sameOption(a.pfx, b.pfx) && sameOption(a.passphrase, b.passphrase);
}

/**
 * The channel for the latest material. When the material changes (a rotated client certificate),
 * new requests get a new context and pool; connections of the old one finish what they carry.
 */
export class TlsChannels {
  private last: { material: TlsMaterial; channel: TlsChannel } | null = null;

  constructor(private readonly agentOptions: https.AgentOptions) {}

  channelFor(material: TlsMaterial): TlsChannel {
    if (this.last !== null && sameMaterial(this.last.material, material)) return this.last.channel;
    if (this.last !== null) retire(this.last.channel.agent);
    const channel: TlsChannel = { agent: new https.Agent(this.agentOptions), secureContext: createSecureContext({ ...material }) };
    this.last = { material: { ...material }, channel };
    return channel;
  }

  /** Frees the current pool's idle connections (requests in flight are their owners' to abort). */
  destroy(): void {
    this.last?.channel.agent.destroy();
  }
}

/** An old pool keeps no connection once its requests are done. */
function retire(agent: https.Agent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
