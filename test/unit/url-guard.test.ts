import { policyFromEnv, vetWebhookUrl, type UrlPolicy } from '../../functions/core/webhooks/url-guard.js';

const LOCAL: UrlPolicy = { allowHttp: true, allowLoopback: true };
const CLOUD: UrlPolicy = { allowHttp: false, allowLoopback: false };

/** 'allowed', or the refusal's detail. Host names always go through a given lookup: unit tests touch no network. */
const verdict = (url: string, policy: UrlPolicy = CLOUD, lookup?: UrlPolicy['lookup']) =>
  vetWebhookUrl(url, { ...policy, lookup }).then(
    () => 'allowed',
    (e) => {
      expect(e.code).toBe('webhook-url-refused');
      return e.message as string;
    },
  );
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('the webhook URL guard (SSRF)', () => {
  it.each([
    ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://172.31.255.255/hook', 'private'],
    ['https://192.168.1.1/hook', 'private'],
    ['https://100.64.0.1/hook', 'CGNAT'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://0.0.0.0/hook', '"this" network'],
    ['https://192.0.2.10/hook', 'documentation'],
    ['https://198.51.100.7/hook', 'documentation'],
    ['https://203.0.113.5/hook', 'documentation'],
    ['https://198.18.0.1/hook', 'benchmarking'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://240.0.0.1/hook', 'reserved'],
    ['https://[::1]/hook', 'IPv6 loopback'],
    ['https://[::]/hook', 'IPv6 unspecified'],
    ['https://[fe80::1]/hook', 'IPv6 link-local'],
    ['https://[fd00::1]/hook', 'IPv6 unique local'],
    ['https://[2001:db8::1]/hook', 'IPv6 documentation'],
    ['https://[ff02::1]/hook', 'IPv6 multicast'],
    ['https://[::ffff:10.0.0.1]/hook', 'private IPv4 mapped into IPv6'],
    ['https://[::ffff:169.254.169.254]/hook', 'link-local IPv4 mapped into IPv6'],
    ['https://[64:ff9b::10.0.0.1]/hook', 'private IPv4 behind NAT64'],
  ])('refuses %s (%s)', async (url) => {
    expect(await verdict(url)).toMatch(/is not a public address$/);
  });

  it('refuses what is not an https URL, or carries credentials', async () => {
    expect(await verdict('not a url')).toBe('Not a valid URL');
    expect(await verdict('http://93.184.216.34/hook')).toBe('Webhook URLs must use https');
    expect(await verdict('ftp://93.184.216.34/hook', LOCAL)).toBe('Webhook URLs must use https');
    expect(await verdict('https://user:pass@93.184.216.34/hook')).toBe('Webhook URLs may not carry credentials');
    expect(await verdict('https://token@93.184.216.34/hook')).toBe('Webhook URLs may not carry credentials');
  });

  it('allows public addresses over https, IPv4 and IPv6, also IPv4-mapped', async () => {
    expect(await verdict('https://93.184.216.34/hook')).toBe('allowed');
    expect(await verdict('https://[2606:4700:4700::1111]/hook')).toBe('allowed');
    expect(await verdict('https://[::ffff:93.184.216.34]/hook')).toBe('allowed');
    // NAT64 forms are refused outright, even with a public address inside.
    expect(await verdict('https://[64:ff9b::93.184.216.34]/hook')).toMatch(/not a public address/);
    expect(await verdict('https://hooks.example.com/x', CLOUD, resolvesTo('93.184.216.34', '2606:4700:4700::1111'))).toBe('allowed');
  });

  it('returns the addresses it vetted, which delivery then connects to', async () => {
    const vetted = await vetWebhookUrl('https://hooks.example.com:8443/x?y=1', { ...CLOUD, lookup: resolvesTo('93.184.216.34') });
    expect(vetted.url.href).toBe('https://hooks.example.com:8443/x?y=1');
    expect(vetted.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses a name that resolves to a private address, even one among several public ones, or to nothing', async () => {
    expect(await verdict('https://internal.example.com/hook', CLOUD, resolvesTo('10.1.2.3'))).toBe(
      'internal.example.com resolves to 10.1.2.3, which is not a public address',
    );
    expect(await verdict('https://mixed.example.com/hook', CLOUD, resolvesTo('93.184.216.34', '192.168.0.10'))).toBe(
      'mixed.example.com resolves to 192.168.0.10, which is not a public address',
    );
    expect(await verdict('https://empty.example.com/hook', CLOUD, resolvesTo())).toBe('empty.example.com does not resolve');
    const failing = async () => Promise.reject(new Error('ENOTFOUND'));
    expect(await verdict('https://nowhere.example.com/hook', CLOUD, failing)).toBe('nowhere.example.com does not resolve');
  });

  it('lets the local stack use http and loopback, but never link-local or private', async () => {
    expect(await verdict('http://127.0.0.1:4000/hook', LOCAL)).toBe('allowed');
    expect(await verdict('http://127.8.9.10:4000/hook', LOCAL)).toBe('allowed');
    expect(await verdict('http://[::1]:4000/hook', LOCAL)).toBe('allowed');
    expect(await verdict('http://localhost:4000/hook', LOCAL, resolvesTo('127.0.0.1'))).toBe('allowed');
    expect(await verdict('http://169.254.169.254/', LOCAL)).toBe('169.254.169.254 is not a public address');
    expect(await verdict('http://10.0.0.1/', LOCAL)).toBe('10.0.0.1 is not a public address');
    expect(await verdict('http://[fe80::1]/', LOCAL)).toBe('fe80::1 is not a public address');
  });

  it('is the local policy only when WEBHOOK_ALLOW_LOOPBACK is 1', () => {
    expect(policyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: '1' })).toEqual(LOCAL);
    expect(policyFromEnv({ WEBHOOK_ALLOW_LOOPBACK: 'true' })).toEqual(CLOUD);
    expect(policyFromEnv({})).toEqual(CLOUD);
  });
});
