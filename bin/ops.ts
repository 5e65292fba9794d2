#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, listClients, rotateClientSecret } from '../functions/core/clients.js';
import { depsFromEnv, type Deps } from '../functions/core/deps.js';
import { seedDemoData } from '../functions/core/demo-data.js';
import { isDomainError } from '../functions/core/errors.js';
import type { LocalInfo } from '../lib/local/stack.js';

/**
 * The operator CLI. It runs the same core code as the Lambdas, against the
 * local stack (default: $DATA_DIR/local.json of a running `npm start`) or a
 * deployed table (`--table NAME`, with the usual AWS credentials and region).
 */

const USAGE = `Usage: npm run ops -- <command> [options]

Commands:
  clients create --name NAME [--invoice] [--no-references]   create a client; its secret is shown once
  clients list                                                list clients
  clients rotate-secret --client-id ID                        issue a new secret (the old one stops working)
  seed-demo                                                   create the demo data (local stack only)

Target:
  (default)        the running local stack, found through $DATA_DIR/local.json (DATA_DIR defaults to .data)
  --table NAME     a deployed table; region and credentials come from the AWS environment
`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    invoice: { type: 'boolean', default: false },
    'no-references': { type: 'boolean', default: false },
    'client-id': { type: 'string' },
    table: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function target(): { deps: Deps; local: boolean } {
  if (values.table) return { deps: depsFromEnv({ ...process.env, TABLE_NAME: values.table }), local: false };
  const infoPath = join(process.env.DATA_DIR ?? '.data', 'local.json');
  if (!existsSync(infoPath)) {
    throw new UsageError(`No local stack found (${infoPath} is missing): start it with \`npm start\`, or pass --table NAME.`);
  }
  const info = JSON.parse(readFileSync(infoPath, 'utf8')) as LocalInfo;
  Object.assign(process.env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.dynamodb_endpoint,
  });
  return { deps: depsFromEnv({ ...process.env, TABLE_NAME: info.table_name }), local: true };
}

class UsageError extends Error {}

function required(name: 'name' | 'client-id'): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const [group, action] = positionals;
  if (values.help || !group) {
    console.log(USAGE);
    return;
  }
  const command = action ? `${group} ${action}` : group;
  switch (command) {
    case 'clients create': {
      const { deps } = target();
      const { client, clientSecret } = await createClient(deps, {
        name: required('name'),
        invoiceEnabled: values.invoice,
        referenceRequestsEnabled: !values['no-references'],
      });
      console.log(JSON.stringify({ client_id: client.clientId, client_secret: clientSecret, name: client.name }, null, 2));
      console.error('Store the secret now: it is not shown again.');
      return;
    }
    case 'clients list': {
      const { deps } = target();
      console.table(
        (await listClients(deps)).map((c) => ({
          client_id: c.clientId,
          name: c.name,
          invoicing: c.invoiceEnabled,
          references: c.referenceRequestsEnabled,
          created_at: c.createdAt,
        })),
      );
      return;
    }
    case 'clients rotate-secret': {
      const { deps } = target();
      const clientId = required('client-id');
      console.log(JSON.stringify({ client_id: clientId, client_secret: await rotateClientSecret(deps, clientId) }, null, 2));
      console.error('Store the secret now: it is not shown again. The old secret no longer works.');
      return;
    }
    case 'seed-demo': {
      const { deps, local } = target();
      // The demo credentials are public (they are in this repository): never put them in a deployed table.
      if (!local) throw new UsageError('seed-demo only runs against the local stack');
      console.log(JSON.stringify(await seedDemoData(deps), null, 2));
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

try {
  await main();
} catch (err) {
  if (err instanceof UsageError || isDomainError(err)) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
