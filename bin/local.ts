#!/usr/bin/env node
import { MissingJavaError } from '../lib/local/emulators.js';
import { DataDirLocked } from '../lib/local/lock.js';
import { routeLogs } from '../lib/local/logs.js';
import { localInfoPath, PortInUse, startLocalStack, type LocalInfo } from '../lib/local/stack.js';

/** `npm start`: the whole stack on this machine. PORT and DATA_DIR move it; LOG_LEVEL=debug keeps the logs on the terminal. */

const port = Number(process.env.PORT ?? 3000);

/** What a facade family's line adds: whose tokens it takes, and its sunset when it is deprecated. */
function familyNote(info: LocalInfo, family: string): string {
  const notes = [
    ...(info.token_families[family] ? [`${info.token_families[family]} tokens`] : []),
    ...(info.deprecations[family] ? [`deprecated, sunset ${info.deprecations[family].sunset_at.slice(0, 10)}`] : []),
  ];
  return notes.length ? `\n  ${''.padEnd(26)} ${notes.join('; ')}` : '';
}
const dataDir = process.env.DATA_DIR ?? '.data';

let logs: ReturnType<typeof routeLogs> | undefined;
try {
  const stack = await startLocalStack({
    port,
    dataDir,
    // Logs are routed once the data directory is ours (the lock is taken first): never into another stack's log.
    onStarting: () => void (logs = routeLogs(dataDir)),
    onError: (err) =>
      (logs?.log ?? console.error)(JSON.stringify({ level: 'error', time: new Date().toISOString(), message: 'local stack', error: String(err) })),
  });
  const { info } = stack;
  const lines = [
    '',
    'Agency API local stack is up.',
    '',
    ...Object.entries(info.families).map(([family, url]) => `  ${family.padEnd(26)} ${url}    (docs: ${url}/docs)${familyNote(info, family)}`),
    `  ${'index'.padEnd(26)} ${info.docs_url}`,
    '',
    'Demo clients (local only):',
    ...info.clients.map((c) => `  ${c.name}${c.invoice_enabled ? ' (invoicing on)' : ''}\n    client_id=${c.client_id}  client_secret=${c.client_secret}`),
    '',
    `Written to ${localInfoPath(dataDir)}; e-mails land in ${info.mailbox_dir}.`,
    logs?.file ? `Request logs: ${logs.file} (LOG_LEVEL=debug shows them here). Ctrl-C stops everything.` : 'Ctrl-C stops everything.',
    '',
  ];
  logs!.terminal(lines.join('\n') + '\n');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logs!.terminal(`\n${signal}: stopping the local stack…\n`);
    await stack.stop();
    await logs!.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  await logs?.close();
  if (err instanceof MissingJavaError || err instanceof DataDirLocked || err instanceof PortInUse) {
    console.error(err.message);
  } else {
    console.error('The local stack could not start:', err instanceof Error ? err.message : err);
  }
  process.exit(1);
}
