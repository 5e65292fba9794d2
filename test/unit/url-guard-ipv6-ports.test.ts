import { vetWebhookUrl, type UrlPolicy } from '../../functions/core/webhooks/url-guard.js';

/** The webhook URL guard on its own: literal addresses and a stand-in resolver, no network. */

const CLOUD: UrlPolicy = { allowHttp: false, allowLoopback: false };
const LOCAL: UrlPolicy = { allowHttp: true, allowLoopback: true };

const verdict = (url: string, policy: UrlPolicy = CLOUD, resolvesTo?: string) =>
  vetWebhookUrl(url, { ...policy, lookup: resolvesTo ? async () => [{ address: resolvesTo, family: resolvesTo.includes(':') ? 6 : 4 }] : undefined }).then(
    () => 'allowed',
    (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
  );

describe('IPv6 forms that embed or translate IPv4', () => {
  it.each([
    ['IPv4-compatible', 'https://[::93.184.216.34]/hook'],
    ['IPv4-compatible, in hex', 'https://[::5db8:d822]/hook'],
    ['IPv4-translated', 'https://[::ffff:0:93.184.216.34]/hook'],
    ['IPv4-translated, private', 'https://[::ffff:0:10.0.0.1]/hook'],
    ['NAT64 well-known prefix', 'https://[64:ff9b::93.184.216.34]/hook'],
    ['NAT64 well-known prefix, to the metadata service', 'https://[64:ff9b::169.254.169.254]/latest'],
    ['NAT64 local-use prefix', 'https://[64:ff9b:1::5db8:d822]/hook'],
    ['NAT64 local-use prefix, deeper in the /48', 'https://[64:ff9b:1:ffff::1]/hook'],
    ['6to4', 'https://[2002:5db8:d822::1]/hook'],
    ['6to4 of a private address', 'https://[2002:a00:1::1]/hook'],
    ['site-local', 'https://[fec0::1]/hook'],
    ['site-local, top of the /10', 'https://[feff::1]/hook'],
  ])('refuses %s (%s)', async (_, url) => {
    expect(await verdict(url)).toMatch(/^webhook-url-refused: .* is not a public address$/);
  });

  it('refuses a name that resolves to one of them', async () => {
    expect(await verdict('https://nat64.example.com/hook', CLOUD, '64:ff9b::a00:1')).toBe(
      'webhook-url-refused: nat64.example.com resolves to 64:ff9b::a00:1, which is not a public address',
    );
  });

  it('still judges an IPv4-mapped address as the IPv4 it carries, and allows public IPv6', async () => {
    expect(await verdict('https://[::ffff:93.184.216.34]/hook')).toBe('allowed');
    expect(await verdict('https://[::ffff:10.0.0.1]/hook')).toMatch(/^webhook-url-refused/);
    expect(await verdict('https://[2606:2800:220:1:248:1893:25c8:1946]/hook')).toBe('allowed');
    // Just outside the refused ranges.
    expect(await verdict('https://[2003::1]/hook')).toBe('allowed');
    expect(await verdict('https://[64:ff9b:2::1]/hook')).toBe('allowed');
  });
});

describe('ports', () => {
  it.each([1, 21, 22, 25, 53, 80, 110, 389, 444, 587, 1023])('refuses port %i in the cloud', async (port) => {
    expect(await verdict(`https://93.184.216.34:${port}/hook`)).toBe(`webhook-url-refused: Port ${port} is not allowed: use 443 or a port from 1024 to 65535`);
    expect(await verdict(`https://hooks.example.com:${port}/hook`, CLOUD, '93.184.216.34')).toMatch(/^webhook-url-refused: Port/);
  });

  it('refuses a bad port before it resolves the host: no DNS query, and the refusal names the port', async () => {
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      throw new Error('ENOTFOUND');
    };
    await expect(vetWebhookUrl('https://never-resolved.example.com:22/hook', { ...CLOUD, lookup })).rejects.toMatchObject({
      code: 'webhook-url-refused',
      message: 'Port 22 is not allowed: use 443 or a port from 1024 to 65535',
    });
    await expect(vetWebhookUrl('https://never-resolved.example.com:80/hook', { ...CLOUD, lookup })).rejects.toMatchObject({
      message: expect.stringMatching(/^Port 80 /),
    });
    expect(asked).toEqual([]);
    // A good port goes on to resolve the host.
    await expect(vetWebhookUrl('https://never-resolved.example.com:8443/hook', { ...CLOUD, lookup })).rejects.toMatchObject({
      message: 'never-resolved.example.com does not resolve',
    });
    expect(asked).toEqual(['never-resolved.example.com']);
  });

  it.each([443, 1024, 8443, 65535])('allows port %i', async (port) => {
    expect(await verdict(`https://93.184.216.34:${port}/hook`)).toBe('allowed');
  });

  it('takes the default port of https as 443', async () => {
    expect(await verdict('https://93.184.216.34/hook')).toBe('allowed');
  });

  it('lets the local stack reach loopback on any port, and holds other hosts to the rule', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://127.0.0.1:25/hook', 'http://[::1]:80/hook', 'http://127.0.0.1:4000/hook']) {
      expect(await verdict(url, LOCAL)).toBe('allowed');
    }
    expect(await verdict('http://localhost:22/hook', LOCAL, '127.0.0.1')).toBe('allowed');
    expect(await verdict('http://93.184.216.34:22/hook', LOCAL)).toMatch(/^webhook-url-refused: Port 22/);
    expect(await verdict('http://93.184.216.34/hook', LOCAL)).toMatch(/^webhook-url-refused: Port 80/);
  });
});
