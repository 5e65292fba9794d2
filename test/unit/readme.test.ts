import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newWebhookSecret, signatureHeader } from '../../functions/core/webhooks/signing.js';

/** The webhooks guide's signature snippet is what receivers copy: it must verify what the service sends. */
async function readmeVerifier(): Promise<(secret: string, headers: Record<string, string>, body: string) => boolean> {
  const readme = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const block = /<!-- verify-snippet -->\s*```js\n([\s\S]*?)```/.exec(readme)![1]!;
  expect(block.trim().split('\n').length).toBeLessThanOrEqual(10);
  const file = join(mkdtempSync(join(tmpdir(), 'readme-')), 'verify.mjs');
  writeFileSync(file, block);
  return (await import(pathToFileURL(file).href)).verifyWebhook;
}

it('the README snippet verifies a real signature, both during a rotation, and refuses tampering or staleness', async () => {
  const verifyWebhook = await readmeVerifier();
  const [secret, previous] = [newWebhookSecret(), newWebhookSecret()];
  const body = JSON.stringify({ type: 'booking.created', timestamp: new Date().toISOString(), data: { id: 7 } });
  const ts = Math.floor(Date.now() / 1000);
  const headers = (signatures: string, at = ts) => ({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': signatures });

  expect(verifyWebhook(secret, headers(signatureHeader([secret], 'evt_1', ts, body)), body)).toBe(true);
  const both = signatureHeader([secret, previous], 'evt_1', ts, body);
  expect(verifyWebhook(secret, headers(both), body)).toBe(true);
  expect(verifyWebhook(previous, headers(both), body)).toBe(true);
  expect(verifyWebhook(newWebhookSecret(), headers(both), body)).toBe(false);
  expect(verifyWebhook(secret, headers(both), body.replace('7', '8'))).toBe(false);
  const old = ts - 600;
  expect(verifyWebhook(secret, headers(signatureHeader([secret], 'evt_1', old, body), old), body)).toBe(false);
});
