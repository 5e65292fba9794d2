import { PutObjectCommand } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { setEntitlement } from '../access/account-settings.js';
import { createS3Client } from '../documents/attach.js';
import { DOCUMENTS_BUCKET_ENV } from '../documents/kinds.js';
import { requireEnv } from '../platform/config.js';
import type { Deps } from '../platform/deps.js';
import { listRequests, requireRequest } from '../requests/store.js';
import { CSTF_CODES } from './groups/training.js';
import { loadCatalogue } from '../practical-training/catalogue.js';
import { loadCourses } from '../virtual-life-support/catalogue.js';
import type { InviteLinks } from './booking-invites.js';
import { itemUploadPrefix } from './request-files.js';
import { createGroupRequest } from './group-create.js';
import { cancelGroupRequest, GROUP_KINDS } from './request-groups.js';
import { reviewItem } from './request-items.js';
import { attachUploadedFile, markOpened, submitItemFields } from './request-pages.js';
import { createRequestTemplate, listRequestTemplates } from './request-templates.js';

/**
 * Demo data of the request groups (`npm start`): the occupational health
 * entitlement for both demo clients, a template per group, and for the first
 * client one request of each group, each in another state. The requests go
 * through the same operations and pages a user would use, files included.
 * Idempotent: a group that already has a demo request is left alone.
 */

const NORTHWIND = 'demo-northwind';
const DEMO_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const TEMPLATES = [
  { kind: 'training', name: 'Core mandatory training', description: 'The eleven CSTF subjects.', preset: { subjects: CSTF_CODES } },
  {
    kind: 'certificate',
    name: 'DBS and right to work',
    description: 'An enhanced DBS certificate and proof of the right to work.',
    preset: { certificates: [{ kind: 'dbs' }, { kind: 'right_to_work' }] },
  },
  {
    kind: 'occupational_health',
    name: 'Standard clearance',
    description: 'Immunisations and clearance from the candidate.',
    preset: { collection_mode: 'candidate_provides', epp_role: false },
  },
];

const day = (deps: Deps, offset: number) => new Date(deps.clock().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

/** The candidate's step one and two for an item, as the page does them. */
async function submitAsCandidate(deps: Deps, token: string, requestId: number, itemId: number, fields: Record<string, string>) {
  await submitItemFields(deps, token, 'submission', itemId, fields);
  const key = `${itemUploadPrefix({ client_id: NORTHWIND, id: requestId }, itemId)}${randomUUID()}`;
  await createS3Client().send(new PutObjectCommand({ Bucket: requireEnv(DOCUMENTS_BUCKET_ENV), Key: key, Body: DEMO_PDF, ContentType: 'application/pdf' }));
  await attachUploadedFile(deps, token, 'submission', key);
}

/** The demo clients' occupational health entitlement and a template per group: cheap, on every local stack. */
export async function seedRequestGroups(deps: Deps): Promise<void> {
  for (const client of [NORTHWIND, 'demo-riverside']) await setEntitlement(deps, client, 'occupational_health', true);
  for (const t of TEMPLATES) if ((await listRequestTemplates(deps, t.kind)).length === 0) await createRequestTemplate(deps, t);
}

/** One request of each group for the first demo client, each in another state (through the real operations and pages). */
export async function seedDemoRequests(deps: Deps, base: string, inviteLinks: InviteLinks): Promise<void> {
  const seeded = async (kind: string) => (await listRequests(deps, GROUP_KINDS[kind]!, NORTHWIND, { limit: 1 })).data.length > 0;
  const token = async (segment: string, id: number) =>
    (await requireRequest(deps, GROUP_KINDS[segment.replace(/-requests$/, '').replaceAll('-', '_')]!, NORTHWIND, id)).request.submission_token!;

  // Training: completed (both subjects submitted and accepted).
  if (!(await seeded('training'))) {
    const r = await createGroupRequest(
      deps,
      NORTHWIND,
      'training-requests',
      { candidate_id: 1, subjects: ['fire_safety', 'moving_handling'], expiry_days: 14, notes: 'Before the first shift' },
      base,
    );
    for (const item of r.items)
      await submitAsCandidate(deps, await token('training-requests', r.id), r.id, item.id, {
        completed_on: day(deps, -40),
        provider: 'Skills Academy',
        cstf_aligned: 'yes',
      });
    for (const item of r.items) await reviewItem(deps, NORTHWIND, 'training-requests', r.id, item.id, { accept: true }, null);
  }
  // Certificates: awaiting review (both submitted, files attached).
  if (!(await seeded('certificate'))) {
    const r = await createGroupRequest(
      deps,
      NORTHWIND,
      'certificate-requests',
      { candidate_id: 2, certificates: [{ kind: 'dbs' }, { kind: 'right_to_work' }], expiry_days: 14 },
      base,
    );
    const t = await token('certificate-requests', r.id);
    await submitAsCandidate(deps, t, r.id, r.items[0]!.id, {
      certificate_number: '001234567890',
      issued_on: day(deps, -100),
      level: 'enhanced',
      barred_lists__adults: 'yes',
      workforce: 'Adult',
      update_service: 'yes',
    });
    await submitAsCandidate(deps, t, r.id, r.items[1]!.id, { document_type: 'Passport', expires_on: day(deps, 2000) });
  }
  // Appraisal: pending (the candidate has not answered yet).
  if (!(await seeded('appraisal'))) await createGroupRequest(deps, NORTHWIND, 'appraisal-requests', { candidate_id: 1, expiry_days: 30 }, base);
  // Training verification: in progress (both issuers e-mailed; the first opened the form and confirmed).
  if (!(await seeded('training_verification'))) {
    const issuer = (n: number) => ({
      course_title: `Basic Life Support ${n}`,
      completed_on: day(deps, -60 * n),
      issuer_organisation: 'Resus Training Ltd',
      issuer_contact_name: 'Registrar',
      issuer_contact_email: `registrar${n}@resus-training.example`,
    });
    const r = await createGroupRequest(
      deps,
      NORTHWIND,
      'training-verification-requests',
      { candidate_id: 2, certificates: [issuer(1), issuer(2)], expiry_days: 14 },
      base,
    );
    const { items } = await requireRequest(deps, GROUP_KINDS.training_verification!, NORTHWIND, r.id);
    await markOpened(deps, items[0]!.form_token!);
    await submitItemFields(deps, items[0]!.form_token!, 'form', items[0]!.id, {
      issuer_name: 'A. Registrar',
      issuer_position: 'Registrar',
      decision: 'confirm',
    });
  }
  // Practical training: expired (made three weeks ago for 14 days; its invite, never used, expired with it), so the demo shows every status.
  const course = (await loadCatalogue(deps)).courses.find((c) => c.active);
  if (course && !(await seeded('practical_training'))) {
    const threeWeeksAgo = new Date(deps.clock().getTime() - 21 * 86_400_000);
    await createGroupRequest(
      { ...deps, clock: () => threeWeeksAgo },
      NORTHWIND,
      'practical-training-requests',
      { candidate_id: 2, course_id: course.id, pay_option: 'credits', expiry_days: 14, notes: 'Practical before the first shift' },
      base,
      inviteLinks,
    );
  }
  // Life support: pending (the virtual life-support family e-mailed its invite, for the first active virtual course).
  const virtual = (await loadCourses(deps)).find((c) => c.active);
  if (virtual && !(await seeded('life_support'))) {
    await createGroupRequest(
      deps,
      NORTHWIND,
      'life-support-requests',
      { candidate_id: 1, course_id: virtual.id, pay_option: 'credits', expiry_days: 30 },
      base,
      inviteLinks,
    );
  }
  // Occupational health: cancelled.
  if (!(await seeded('occupational_health'))) {
    const r = await createGroupRequest(
      deps,
      NORTHWIND,
      'occupational-health-requests',
      { candidate_id: 1, collection_mode: 'candidate_provides', epp_role: false, expiry_days: 14 },
      base,
    );
    await cancelGroupRequest(deps, NORTHWIND, 'occupational-health-requests', r.id);
  }
}
