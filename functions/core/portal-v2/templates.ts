import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';

/**
 * Reference form templates: the questions a referee answers. Rated questions
 * (1 to 5) carry weights; a completed reference's score is their weighted
 * mean on a 0-100 scale. Templates are defined by operators and offered to
 * every client.
 */

export interface Question {
  id: string;
  kind: 'rating' | 'text';
  label: string;
  required: boolean;
  /** Rated questions only. */
  weight?: number;
}

export interface Template {
  id: number;
  name: string;
  description: string;
  questions: Question[];
}

export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** A stored answer: a rating as a number, text as a string, an unanswered optional rating as null. */
export type Answer = string | number | null;

/** A rating as a form sends it: a whole number in plain digits, RATING_MIN to RATING_MAX ("0x5", "5.0", "5e0" are not). */
export function parseRating(raw: string): number | undefined {
  if (!/^\d{1,2}$/.test(raw)) return undefined;
  const rating = Number(raw);
  return rating >= RATING_MIN && rating <= RATING_MAX ? rating : undefined;
}

const FAMILY = 'portal-v2' as const satisfies FamilyId;
const TEMPLATES = TABLE_KEYS.templates;
export const templateKeys = { partition: TEMPLATES.pk, template: (id: number) => ({ pk: TEMPLATES.pk, sk: key(TEMPLATES.sk.template, padId(id)) }) };

export function validateTemplate(input: Omit<Template, 'id'>): void {
  if (!input.name?.trim()) throw new DomainError('invalid-catalog', 'A template needs a name');
  if (!Array.isArray(input.questions) || input.questions.length === 0) throw new DomainError('invalid-catalog', 'A template needs questions');
  const ids = new Set<string>();
  for (const q of input.questions) {
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(q.id) || ids.has(q.id))
      throw new DomainError('invalid-catalog', `Question id "${q.id}" must be unique, lower-case letters, digits and _`);
    ids.add(q.id);
    if (q.kind !== 'rating' && q.kind !== 'text') throw new DomainError('invalid-catalog', `Question ${q.id}: kind is rating or text`);
    if (!q.label?.trim()) throw new DomainError('invalid-catalog', `Question ${q.id} needs a label`);
    if (q.kind === 'rating' && !(typeof q.weight === 'number' && q.weight > 0))
      throw new DomainError('invalid-catalog', `Rated question ${q.id} needs a positive weight`);
  }
  if (!input.questions.some((q) => q.kind === 'rating')) throw new DomainError('invalid-catalog', 'A template needs at least one rated question for the score');
}

export async function createTemplate(deps: Deps, input: Omit<Template, 'id'> & { id?: number }): Promise<Template> {
  validateTemplate(input);
  const id = input.id ?? (await nextId(deps, FAMILY, 'template'));
  const template: Template = { id, name: input.name, description: input.description ?? '', questions: input.questions };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...templateKeys.template(id), entity: 'template', ...template },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return template;
}

export async function listTemplates(deps: Deps): Promise<Template[]> {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': templateKeys.partition },
    ConsistentRead: true,
  });
  return items.map(({ id, name, description, questions }) => ({ id, name, description, questions }) as Template);
}

/** Weighted mean of the ratings, 0-100, rounded to one decimal. */
export function scoreOf(template: Template, answers: Record<string, Answer>): number {
  let weighted = 0;
  let weights = 0;
  for (const q of template.questions) {
    const rating = answers[q.id];
    if (q.kind !== 'rating' || typeof rating !== 'number') continue;
    weighted += ((rating - RATING_MIN) / (RATING_MAX - RATING_MIN)) * 100 * q.weight!;
    weights += q.weight!;
  }
  return weights === 0 ? 0 : Math.round((weighted / weights) * 10) / 10;
}
