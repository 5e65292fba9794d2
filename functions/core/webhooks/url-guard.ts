import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { DomainError } from '../platform/errors.js';
import { environment } from '../platform/config.js';

/**
 * Where webhooks may go. Only https, on port 443 or 1024-65535, and only to
 * public addresses: never private, loopback, link-local, CGNAT,
 * documentation, multicast or reserved ranges, nor the IPv6 forms that embed
 * or translate an IPv4 address (a NAT64 or 6to4 gateway would carry the
 * request on to whatever IPv4 it names). Checked when an endpoint is saved and again at delivery, against
 * the addresses the name resolves to then; the delivery connects to the
 * vetted address itself, so DNS cannot change between check and connect.
 * The local stack may allow http and loopback (on any port); link-local and
 * private stay refused everywhere.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (well-known and local-use), 6to4, site-local.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['fec0::', 10],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4-mapped address (::ffff:a.b.c.d) is the IPv4 it carries, and is judged as that. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

export interface UrlPolicy {
  allowHttp: boolean;
  allowLoopback: boolean;
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** The address as judged: an IPv4-mapped IPv6 address as its IPv4. */
function judged(address: string): [string, 'ipv4' | 'ipv6'] {
  const v4 = embeddedIpv4(address);
  return v4 ? [v4, 'ipv4'] : [address, isIP(address) === 6 ? 'ipv6' : 'ipv4'];
}

const isLoopback = (address: string) => loopback.check(...judged(address));

export function addressAllowed(address: string, policy: Pick<UrlPolicy, 'allowLoopback'>): boolean {
  if (policy.allowLoopback && isLoopback(address)) return true;
  return !blocked.check(...judged(address));
}

export const policyFromEnv = (env: NodeJS.ProcessEnv = environment()): UrlPolicy => ({
  allowHttp: env.WEBHOOK_ALLOW_LOOPBACK === '1',
  allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === '1',
});

const refuse = (detail: string) => new DomainError('webhook-url-refused', detail);

/** 443, or an unprivileged port: nothing below 1024 but https's own (no SMTP, SSH, DNS...). */
export const portAllowed = (port: number): boolean => port === 443 || (port >= 1024 && port <= 65535);

/** Parses and checks a webhook URL; resolves its host and returns the addresses it may be reached at. */
export async function vetWebhookUrl(raw: string, policy: UrlPolicy): Promise<{ url: URL; addresses: { address: string; family: number }[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('Not a valid URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) throw refuse('Webhook URLs must use https');
  if (url.username || url.password) throw refuse('Webhook URLs may not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  // A bad port is refused before the host is resolved: no DNS query (a probe of names) for a URL that can never pass.
  // Only a policy that allows loopback waits for the addresses, since a receiver on this machine may listen anywhere.
  if (!portAllowed(port) && !policy.allowLoopback) throw refuse(`Port ${port} is not allowed: use 443 or a port from 1024 to 65535`);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (policy.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true })))(host);
    } catch {
      throw refuse(`${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw refuse(`${host} does not resolve`);
  // Every address must be allowed: a name that also points inside is refused whole.
  const bad = addresses.find((a) => !addressAllowed(a.address, policy));
  if (bad) throw refuse(bad.address === host ? `${host} is not a public address` : `${host} resolves to ${bad.address}, which is not a public address`);
  // A receiver on the developer's own machine may listen anywhere.
  const local = policy.allowLoopback && addresses.every((a) => isLoopback(a.address));
  if (!portAllowed(port) && !local) throw refuse(`Port ${port} is not allowed: use 443 or a port from 1024 to 65535`);
  return { url, addresses };
}
