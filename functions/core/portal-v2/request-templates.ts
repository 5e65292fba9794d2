import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';

/**
 * Templates of the request groups: a named preset of a kind's create fields
 * (`subjects` for training, `certificates` for certificates…). Reference
 * templates (questions for referees) stay in templates.ts, unchanged.
 */

export interface RequestTemplate {
  id: number;
  kind: string;
  name: string;
  description: string;
  preset: Record<string, unknown>;
}

const T = TABLE_KEYS.requestTemplates;
const templateKey = (kind: string, id: number) => ({ pk: key(T.pk, kind), sk: key(T.sk.template, padId(id)) });

export async function createRequestTemplate(deps: Deps, input: Omit<RequestTemplate, 'id'>): Promise<RequestTemplate> {
  const template = { id: await nextId(deps, 'portal-v2', 'request-template'), ...input };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...templateKey(input.kind, template.id), entity: 'request-template', ...template },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return template;
}

export async function getRequestTemplate(deps: Deps, kind: string, id: number): Promise<RequestTemplate | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: templateKey(kind, id), ConsistentRead: true }));
  const stored = Item as RequestTemplate | undefined;
  return stored && { id: stored.id, kind: stored.kind, name: stored.name, description: stored.description, preset: stored.preset };
}

export async function listRequestTemplates(deps: Deps, kind: string): Promise<RequestTemplate[]> {
  const items = await queryAll(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': key(T.pk, kind) }, ConsistentRead: true });
  return items.map(({ id, kind: k, name, description, preset }) => ({ id, kind: k, name, description, preset }) as RequestTemplate);
}
