import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../lib/local/stack.js';
import { uniqueName, useEmulatorEnv } from './env.js';
import { eventually } from './eventually.js';

/** The local stack in this test process, on the shared emulators, with its own table and queues. */
export async function startTestStack(env: Record<string, string> = {}, options: Partial<LocalStackOptions> = {}): Promise<LocalStack> {
  useEmulatorEnv();
  Object.assign(process.env, env);
  return startLocalStack({
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'agency-test-')),
    dynamoEndpoint: process.env.TEST_DYNAMODB_ENDPOINT,
    sqsEndpoint: process.env.TEST_SQS_ENDPOINT,
    tableName: uniqueName('e2e'),
    queuePrefix: uniqueName('e2e'),
    // The request groups' demo requests only where a test looks at them (they cost seconds under load).
    demoRequests: false,
    ...options,
  });
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** fetch with a JSON body in and a parsed body out. */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** The e-mails to `address` in the stack's local mailbox, once there are at least `count`. */
export function mailTo(stack: LocalStack, address: string, count = 1): Promise<string[]> {
  return eventually(
    () => {
      const dir = stack.info.mailbox_dir;
      const mails = existsSync(dir)
        ? readdirSync(dir)
            .map((f) => readFileSync(join(dir, f), 'utf8'))
            .filter((m) => m.includes(`To: ${address}\n`))
        : [];
      return mails.length >= count && mails;
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `${count} e-mails to ${address}` },
  );
}

/** The demo clients' credentials, as `npm start` seeds them. */
export const DEMO_CREDENTIALS = {
  northwind: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' },
  riverside: { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' },
} as const;

export type DemoClientName = keyof typeof DEMO_CREDENTIALS;

/** An access token of each demo client in each family: `tokens[family][client]`. */
export async function demoTokens(stack: LocalStack): Promise<Record<string, Record<DemoClientName, string>>> {
  const tokens: Record<string, Record<DemoClientName, string>> = {};
  for (const [family, base] of Object.entries(stack.info.families)) {
    // A facade family has no token operations: it takes its parent's tokens (filled in below).
    if (stack.info.token_families[family]) continue;
    const pairs = await Promise.all(
      Object.entries(DEMO_CREDENTIALS).map(
        async ([who, credentials]) => [who, (await call(`${base}/auth/token`, { body: credentials })).body.access_token] as const,
      ),
    );
    tokens[family] = Object.fromEntries(pairs) as Record<DemoClientName, string>;
  }
  for (const [family, parent] of Object.entries(stack.info.token_families)) tokens[family] = tokens[parent]!;
  return tokens;
}
