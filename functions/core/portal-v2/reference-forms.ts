import { getClient } from '../access/clients.js';
import { eventPut } from '../events/outbox.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { freeTextProblem, normaliseLineBreaks } from '../platform/safe-text.js';
import { part, transact } from '../platform/transact.js';
import { followLink } from '../requests/links.js';
import { itemAnswerable, itemChange, itemStatusIs, requestChange, requestEvent } from '../requests/store.js';
import {
  derivedStatus,
  effectiveReferenceStatus,
  effectiveStatus,
  FORM_LINK,
  loadReferenceRequest,
  OUTSTANDING,
  references as kind,
  SUBMISSION_LINK,
  toReferenceView,
  type RefereeInput,
  type ReferenceItem,
  type ReferenceStatus,
  type RequestItem,
} from './references.js';
import { MAX_REFEREES, newReferences, refuseSelfReference } from './reference-requests.js';
import { listTemplates, parseRating, RATING_MAX, RATING_MIN, scoreOf, type Answer, type Template } from './templates.js';

/**
 * The public pages of reference requests, reached by unguessable links: the
 * referee's form, and the page where a candidate names their referees. A link
 * stops working when its request is cancelled or expires, or once it has
 * been answered.
 */

export const MAX_ANSWER_CHARS = 2000;

export interface FormContext {
  agency: string;
  request: RequestItem;
  references: ReferenceItem[];
  reference: ReferenceItem;
  template: Template;
  /** open, or why the form is closed. */
  state: 'open' | Exclude<ReferenceStatus, 'pending' | 'sent' | 'opened'>;
}

export async function referenceForm(deps: Deps, token: string): Promise<FormContext> {
  const target = await followLink(deps, FORM_LINK, token);
  const loaded = await loadReferenceRequest(deps, target.client_id, Number(target.reference_request_id));
  const reference = loaded?.references.find((r) => r.id === target.reference_id);
  if (!loaded || !reference) throw new DomainError('not-found', 'This link is not valid.');
  const [client, templates] = await Promise.all([getClient(deps, target.client_id), listTemplates(deps)]);
  const status = effectiveReferenceStatus(reference, loaded.request, deps.clock());
  const state = status === 'pending' || status === 'sent' || status === 'opened' ? 'open' : status;
  return {
    agency: client?.name ?? 'The agency',
    request: loaded.request,
    references: loaded.references,
    reference,
    template: templates.find((t) => t.id === loaded.request.template_id)!,
    state,
  };
}

/** The referee opened the form: `opened`, and the request is in progress. Only the first opening counts. */
export async function markOpened(deps: Deps, token: string): Promise<void> {
  await retryOnConflict(async () => {
    const ctx = await referenceForm(deps, token);
    if (ctx.state !== 'open' || ctx.reference.status !== 'sent') return;
    const at = deps.clock().toISOString();
    const refs = ctx.references.map((r) => (r.id === ctx.reference.id ? { ...r, status: 'opened' as const } : r));
    await transact(deps, [
      requestChange(deps, kind, ctx.request, { status: derivedStatus(ctx.request, refs) }).part,
      itemChange(deps, kind, ctx.request, ctx.reference, { status: 'opened', opened_at: at, updated_at: at }, itemStatusIs('sent')),
    ]);
  });
}

/**
 * Reads a referee's answers against the template: every required question
 * answered, ratings whole numbers from 1 to 5 (kept as numbers), text bounded
 * and free of control and invisible formatting characters.
 */
export function readAnswers(template: Template, raw: Record<string, string>): { answers: Record<string, Answer>; errors: Record<string, string> } {
  const answers: Record<string, Answer> = {};
  const errors: Record<string, string> = {};
  for (const q of template.questions) {
    const value = normaliseLineBreaks(raw[q.id] ?? '').trim();
    if (q.kind === 'rating') {
      const rating = value ? parseRating(value) : undefined;
      if (value && rating === undefined) errors[q.id] = `Choose a rating from ${RATING_MIN} to ${RATING_MAX}`;
      answers[q.id] = rating ?? null;
    } else {
      const problem = freeTextProblem(value, MAX_ANSWER_CHARS);
      if (problem) errors[q.id] = problem;
      answers[q.id] = value;
    }
    if (!value && q.required) errors[q.id] = 'Please answer this question';
  }
  return { answers, errors };
}

/** Closes the reference (completed or declined), moves the request on, and tells the agency. */
async function answer(deps: Deps, token: string, change: (ctx: FormContext) => Partial<ReferenceItem> & { status: 'completed' | 'declined' }) {
  return retryOnConflict(async () => {
    const ctx = await referenceForm(deps, token);
    if (ctx.state !== 'open') throw new DomainError('invalid-state', `This reference is ${ctx.state}`);
    const now = deps.clock();
    const at = now.toISOString();
    const fields = { ...change(ctx), submitted_at: at, updated_at: at };
    const reference: ReferenceItem = { ...ctx.reference, ...fields };
    const refs = ctx.references.map((r) => (r.id === reference.id ? reference : r));
    const completed = refs.filter((r) => r.status === 'completed').length;
    const status = derivedStatus(ctx.request, refs);
    const { after: request, part: requestPart } = requestChange(deps, kind, ctx.request, { references_completed: completed, status });
    await transact(deps, [
      requestPart,
      itemChange(deps, kind, ctx.request, ctx.reference, fields, itemAnswerable(OUTSTANDING, now)),
      part(
        'event',
        eventPut(deps, {
          type: reference.status === 'completed' ? 'reference.completed' : 'reference.declined',
          client_id: request.client_id,
          family: 'portal-v2',
          data: toReferenceView(reference, request, now),
        }),
      ),
      ...(status === 'completed' && ctx.request.status !== 'completed' ? [requestEvent(deps, kind, 'completed', request, refs)] : []),
    ]);
    return reference;
  });
}

export async function submitReference(deps: Deps, token: string, answers: Record<string, string>) {
  return answer(deps, token, (ctx) => {
    const { answers: kept, errors } = readAnswers(ctx.template, answers);
    if (Object.keys(errors).length) throw new DomainError('invalid-state', 'Some answers need attention', { errors });
    return { status: 'completed', answers: kept, score: scoreOf(ctx.template, kept) };
  });
}

export async function declineReference(deps: Deps, token: string, reason: string) {
  const trimmed = normaliseLineBreaks(reason).trim();
  const problem = trimmed ? freeTextProblem(trimmed, MAX_ANSWER_CHARS) : 'Please give a reason';
  if (problem) throw new DomainError('invalid-state', problem, { errors: { reason: problem } });
  return answer(deps, token, () => ({ status: 'declined', decline_reason: trimmed }));
}

export interface SubmissionContext {
  agency: string;
  request: RequestItem;
  references: ReferenceItem[];
  state: 'open' | 'submitted' | 'cancelled' | 'expired' | 'completed';
}

export async function submissionPage(deps: Deps, token: string): Promise<SubmissionContext> {
  const target = await followLink(deps, SUBMISSION_LINK, token);
  const loaded = await loadReferenceRequest(deps, target.client_id, Number(target.reference_request_id));
  if (!loaded) throw new DomainError('not-found', 'This link is not valid.');
  const client = await getClient(deps, target.client_id);
  const status = effectiveStatus(loaded.request, deps.clock());
  const state = status === 'cancelled' || status === 'expired' || status === 'completed' ? status : loaded.references.length > 0 ? 'submitted' : 'open';
  return { agency: client?.name ?? 'The agency', ...loaded, state };
}

/**
 * The candidate names their referees once; each is e-mailed at once. A
 * referee who is the candidate is refused as an error on `field(i)`.
 */
export async function submitReferees(deps: Deps, token: string, referees: RefereeInput[], field = (i: number) => `/referees/${i}/referee_email`) {
  if (referees.length === 0 || referees.length > MAX_REFEREES) throw new DomainError('invalid-state', `Give 1 to ${MAX_REFEREES} referees`);
  return retryOnConflict(async () => {
    const ctx = await submissionPage(deps, token);
    if (ctx.state !== 'open')
      throw new DomainError('invalid-state', ctx.state === 'submitted' ? 'Your referees have already been sent' : `This request is ${ctx.state}`);
    refuseSelfReference(ctx.request.candidate_email, referees, field);
    const { items, parts } = await newReferences(deps, ctx.request, ctx.agency, referees);
    // The version condition makes a second, concurrent submission retry and then find the first.
    await transact(deps, [requestChange(deps, kind, ctx.request, {}).part, ...parts]);
    return items;
  });
}
