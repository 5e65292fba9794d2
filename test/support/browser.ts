import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core (which never downloads a
 * browser). A machine of this kind has no Chromium until it is installed;
 * as root with apt, the tests install it once, as `.ci/run` does.
 */
export const CHROMIUM = '/usr/bin/chromium';

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`The page tests need Chromium at ${CHROMIUM}: sudo apt-get install chromium`);
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'ignore', timeout: 600_000 });
}

/** Headless, with the flags that keep Chromium off a closed network (no background look-ups). */
export async function launchBrowser(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
