import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, ExecuteStatementCommand, QueryCommand, type AttributeValue, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ledgerPut, newLedgerEntry, type LedgerEntry } from '../../../functions/core/commerce/ledger.js';
import { candidatePaymentPart, refundOwedParts } from '../../../functions/core/commerce/refunds.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import type { FamilyId } from '../../../functions/core/platform/families.js';
import { part, transact } from '../../../functions/core/platform/transact.js';
import { PROJECT_ROOT } from '../../../lib/routes.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * docs/finance.md's queries, exactly as written there, against DynamoDB
 * Local: the AWS CLI form (its arguments turned into the same Query call the
 * CLI makes) and the PartiQL form both return what the document says.
 */

let deps: Deps;
let clock: TestClock;
const db = () => new DynamoDBClient({});

/** The `<!-- finance-query: NAME -->` blocks of the document, by name and language. */
function documentedQueries(): Map<string, { sh: string; sql: string }> {
  const text = readFileSync(join(PROJECT_ROOT, 'docs', 'finance.md'), 'utf8');
  const queries = new Map<string, { sh: string; sql: string }>();
  for (const m of text.matchAll(/<!-- not in the session: finance query ([\w-]+) -->\n```(sh|sql)\n([\s\S]*?)```/g)) {
    const entry = queries.get(m[1]!) ?? { sh: '', sql: '' };
    entry[m[2] as 'sh' | 'sql'] = m[3]!;
    queries.set(m[1]!, entry);
  }
  return queries;
}

/** Shell words of one command: quotes, `\` line continuations and `$TABLE`. */
function shellWords(command: string, table: string): string[] {
  const words: string[] = [];
  const source = command.replace(/\\\n/g, ' ');
  for (const m of source.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push((m[1] ?? m[2] ?? m[3]!).replaceAll('$TABLE', table));
  return words;
}

/** The Query an `aws dynamodb query …` command makes. */
function cliQuery(command: string, table: string): QueryCommandInput {
  const words = shellWords(command, table);
  expect(words.slice(0, 3)).toEqual(['aws', 'dynamodb', 'query']);
  const option = (name: string) => {
    const i = words.indexOf(`--${name}`);
    return i < 0 ? undefined : words[i + 1];
  };
  const json = (name: string) => (option(name) ? JSON.parse(option(name)!) : undefined);
  return {
    TableName: option('table-name')!,
    IndexName: option('index-name'),
    KeyConditionExpression: option('key-condition-expression'),
    FilterExpression: option('filter-expression'),
    ExpressionAttributeNames: json('expression-attribute-names'),
    ExpressionAttributeValues: json('expression-attribute-values') as Record<string, AttributeValue>,
  };
}

async function runCli(command: string): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await db().send(new QueryCommand({ ...cliQuery(command, deps.table), ExclusiveStartKey: start }));
    ids.push(...(page.Items ?? []).map((i) => unmarshall(i).id as string));
    start = page.LastEvaluatedKey;
  } while (start);
  return ids.sort();
}

async function runPartiql(statement: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined;
  do {
    const page = await db().send(new ExecuteStatementCommand({ Statement: statement.replaceAll('$TABLE', deps.table).trim(), NextToken: next }));
    ids.push(...(page.Items ?? []).map((i) => unmarshall(i).id as string));
    next = page.NextToken;
  } while (next);
  return ids.sort();
}

const product = { kind: 'interview_type' as const, id: 1, name: 'Registered Nurse clinical interview' };

async function put(entry: Omit<LedgerEntry, 'id' | 'created_at'>): Promise<string> {
  const made = newLedgerEntry(deps, entry);
  await transact(deps, [part('ledger', ledgerPut(deps, made))]);
  return made.id;
}
const entry = (clientId: string, family: FamilyId, kind: LedgerEntry['kind'], amount: number, unit: LedgerEntry['unit'] = 'GBP') =>
  put({ client_id: clientId, family, kind, amount, unit, balance_after: null, booking_id: 7, interview_type: null, product });

/** Ids of the candidate payment and refund entries a transaction wrote, read back by kind. */
async function candidateMoney(clientId: string, family: FamilyId, bookingId: number, providerReference: string) {
  const paid = { client_id: clientId, family, booking_id: bookingId, product, amount: 4500, providerReference };
  const payment = candidatePaymentPart(deps, paid);
  const owed = refundOwedParts(deps, paid);
  await transact(deps, [payment, ...owed]);
  const idOf = (p: { item: { Put?: { Item?: Record<string, unknown> } } }) => String(p.item.Put!.Item!.id);
  return [idOf(payment), idOf(owed[0]!)];
}

beforeAll(async () => {
  clock = testClock('2026-11-15T10:00:00.000Z');
  deps = await testDeps({ clock });
});

describe("docs/finance.md's queries", () => {
  it('every deduction of a client in a month: its credit and money debits and invoices, nothing else', async () => {
    const expected = [
      await entry('demo-northwind', 'clinical-interview', 'credit_debit', -1, 'credits'),
      await entry('demo-northwind', 'clinical-interview', 'money_debit', -4500),
      await entry('demo-northwind', 'clinical-interview', 'invoice', 5500),
    ];
    // Not deductions, another client, another family, another month.
    await entry('demo-northwind', 'clinical-interview', 'money_topup', 10000);
    await entry('demo-riverside', 'clinical-interview', 'money_debit', -4500);
    await entry('demo-northwind', 'practical-training', 'money_debit', -9500);
    clock.set('2026-12-01T00:00:01.000Z');
    await entry('demo-northwind', 'clinical-interview', 'money_debit', -4500);
    clock.set('2026-11-15T11:00:00.000Z');

    const query = documentedQueries().get('client-deductions')!;
    expect(await runCli(query.sh)).toEqual(expected.sort());
    expect(await runPartiql(query.sql)).toEqual(expected.sort());
  });

  it('every candidate payment and refund of a month, across clients and families', async () => {
    const expected = [
      ...(await candidateMoney('demo-northwind', 'clinical-interview', 11, 'pi_test_one')),
      ...(await candidateMoney('demo-riverside', 'practical-training', 12, 'pi_test_two')),
    ];
    // A wallet refund is not a candidate's.
    await put({
      client_id: 'demo-northwind',
      family: 'clinical-interview',
      kind: 'refund',
      amount: 1,
      unit: 'credits',
      balance_after: 3,
      booking_id: 9,
      interview_type: null,
      product,
      pay_option: 'credits',
    });
    clock.set('2026-10-31T23:59:59.000Z');
    await candidateMoney('demo-northwind', 'clinical-interview', 13, 'pi_test_october');
    clock.set('2026-11-15T12:00:00.000Z');

    const query = documentedQueries().get('candidate-money')!;
    expect(await runCli(query.sh)).toEqual(expected.sort());
    expect(await runPartiql(query.sql)).toEqual(expected.sort());
  });

  it('documents both forms of each query', () => {
    const queries = documentedQueries();
    expect([...queries.keys()].sort()).toEqual(['candidate-money', 'client-deductions']);
    for (const { sh, sql } of queries.values()) expect(sh && sql).toBeTruthy();
  });
});
