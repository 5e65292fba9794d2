#!/usr/bin/env node
import { MissingJavaError } from '../lib/local/emulators.js';
import { localInfoPath, startLocalStack } from '../lib/local/stack.js';

/** `npm start`: the whole stack on this machine. PORT and DATA_DIR move it. */

const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';

try {
  const stack = await startLocalStack({
    port,
    dataDir,
    onError: (err) => console.error(JSON.stringify({ level: 'error', message: 'local stack', error: String(err) })),
  });
  const { info } = stack;
  const lines = [
    '',
    'Agency API local stack is up.',
    '',
    ...Object.entries(info.families).map(([family, url]) => `  ${family.padEnd(20)} ${url}    (docs: ${url}/docs)`),
    `  ${'index'.padEnd(20)} ${info.docs_url}`,
    '',
    'Demo clients (local only):',
    ...info.clients.map(
      (c) => `  ${c.name}${c.invoice_enabled ? ' (invoicing on)' : ''}\n    client_id=${c.client_id}  client_secret=${c.client_secret}`,
    ),
    '',
    `Written to ${localInfoPath(dataDir)}; e-mails land in ${info.mailbox_dir}. Ctrl-C stops everything.`,
    '',
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local stack…`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  if (err instanceof MissingJavaError) {
    console.error(err.message);
  } else {
    console.error('The local stack could not start:', err instanceof Error ? err.message : err);
  }
  process.exit(1);
}
