import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, createClient } from '../../functions/core/access/clients.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { key } from '../../functions/core/platform/key-registry.js';
import * as TABLE_KEYS from '../../functions/core/platform/table-keys.js';
import { checksConsumer } from '../../functions/core/registration-monitoring/queued-checks.js';
import { outboxItems } from './kit.js';
import { enableMonitoring } from '../../functions/core/registration-monitoring/account.js';
import { professionOf, type Register } from '../../functions/core/registration-monitoring/registers.js';
import { createWorker, DEFAULT_MONITORING, type MonitoringSettings } from '../../functions/core/registration-monitoring/workers.js';

/** Registration monitoring test fixtures over one table: clients with monitoring on, workers, and the items a test counts. */
export function monitoringFixtures(deps: () => Deps) {
  let n = 0;
  const delivered = new Set<string>();
  const itemsOf = async (clientId: string, prefix: string) => {
    const { Items } = await deps().db.send(
      new QueryCommand({
        TableName: deps().table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':p': prefix },
        ConsistentRead: true,
      }),
    );
    return Items ?? [];
  };
  const family = (prefix: string) => key(prefix, 'registration-monitoring', '');
  return {
    async newClient(): Promise<string> {
      const { client } = await createClient(deps(), { name: `Monitoring agency ${++n}` });
      await enableMonitoring(deps(), client.clientId, { name: 'Owner', email: 'owner@example.org' });
      return client.clientId;
    },
    newWorker: (clientId: string, register: Register, number: string, monitoring: MonitoringSettings = DEFAULT_MONITORING) =>
      createWorker(deps(), clientId, {
        first_name: 'Grace',
        last_name: 'Adeyemi',
        external_ref: null,
        email: null,
        phone: null,
        job_role: null,
        registration: { register, number, profession: professionOf(register, number) },
        monitoring,
      }),
    itemsOf,
    /** Delivers the client's queued alert e-mail messages (the checks queue's) `times` times each, as SQS may; as SQS may. */
    async deliverAlertMails(clientId: string, times = 1): Promise<void> {
      const messages = (await outboxItems(deps()))
        .filter((o) => o.kind === 'check' && !delivered.has(o.sk))
        .filter((o) => {
          const body = JSON.parse(o.payload) as { kind?: string; client_id?: string };
          return body.kind === 'alert-emails' && body.client_id === clientId;
        });
      for (let n = 0; n < times; n++) {
        const errors: unknown[] = [];
        await checksConsumer(deps(), (err) => errors.push(err))(messages.map((o) => ({ id: o.sk, body: o.payload, receiveCount: n + 1, receiptHandle: o.sk })));
        if (errors.length) throw errors[0];
      }
      for (const o of messages) delivered.add(o.sk);
    },
    usageRecords: (clientId: string) => itemsOf(clientId, family(TABLE_KEYS.client.sk.usage)),
    verifications: (clientId: string) => itemsOf(clientId, family(TABLE_KEYS.client.sk.verification)),
  };
}
