import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalSqs } from '../../lib/local/emulators.js';

/**
 * Abuse-and-isolation 5: DynamoDB Local and fauxqs (SQS and the documents'
 * S3) ask for no credentials, so they listen on 127.0.0.1 only: nothing on
 * the machine's other addresses answers on their ports.
 */

const LISTEN = '0A';
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F', '00000000000000000000000001000000']);

/** The local addresses (hex, as /proc/net/tcp spells them) of every socket listening on `port`. */
function listeningOn(port: number): string[] {
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, hexPort] = local!.split(':');
      if (state === LISTEN && parseInt(hexPort!, 16) === port) addresses.push(address!);
    }
  }
  return addresses;
}

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const otherAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((i) => i && !i.internal && i.family === 'IPv4')
  .map((i) => i!.address);

const portOf = (endpoint: string) => Number(new URL(endpoint).port);

const running: { name: string; port: number }[] = [];
let stopPersistent: (() => Promise<void>) | undefined;

beforeAll(async () => {
  running.push({ name: 'DynamoDB Local', port: portOf(process.env.TEST_DYNAMODB_ENDPOINT!) }, { name: 'fauxqs', port: portOf(process.env.TEST_SQS_ENDPOINT!) });
  // As `npm start` runs it: its queues and objects kept on disk.
  const persistent = await startLocalSqs({ dataDir: mkdtempSync(join(tmpdir(), 'fauxqs-loopback-')) });
  stopPersistent = persistent.stop;
  running.push({ name: 'fauxqs (data on disk)', port: portOf(persistent.endpoint) });
});
afterAll(() => stopPersistent?.());

it('every emulator listens on 127.0.0.1 only', () => {
  for (const { name, port } of running) {
    const addresses = listeningOn(port);
    expect([name, addresses.length > 0]).toEqual([name, true]);
    expect([name, addresses.filter((a) => !LOOPBACK.has(a))]).toEqual([name, []]);
  }
});

it("answers on 127.0.0.1, and on none of the machine's other addresses", async () => {
  for (const { name, port } of running) {
    expect([name, await accepts('127.0.0.1', port)]).toEqual([name, true]);
    for (const address of otherAddresses) expect([name, address, await accepts(address, port)]).toEqual([name, address, false]);
  }
});
