import type { ReferenceItem, ReferenceStatus, RequestItem } from '../../functions/core/portal-v2/references.js';
import { derivedStatus, toReferenceView, toRequestView } from '../../functions/core/portal-v2/references.js';
import { scoreOf, type Template } from '../../functions/core/portal-v2/templates.js';
import type { RequestStatus } from '../../functions/core/platform/request-vocabulary.js';

const NOW = new Date('2026-11-21T10:00:00Z');
const LATER = '2026-12-05T10:00:00.000Z';
const EARLIER = '2026-11-20T10:00:00.000Z';
const BASE = 'https://api.example.com/portal/v2';

function request(overrides: Partial<RequestItem> = {}): RequestItem {
  return {
    id: 7,
    uuid: '0b5c1d7e-0000-4000-8000-000000000007',
    client_id: 'cl_1',
    candidate_id: 3,
    candidate_name: 'Edith Cavell',
    candidate_email: 'edith@example.org',
    template_id: 1,
    template_name: 'Standard',
    collection_mode: 'client_adds',
    status: 'pending',
    references_required: 2,
    references_completed: 0,
    notes: null,
    expires_at: LATER,
    requested_by: 1,
    submission_token: null,
    public_base: BASE,
    version: 1,
    created_at: EARLIER,
    updated_at: EARLIER,
    ...overrides,
  };
}

function reference(overrides: Partial<ReferenceItem> = {}): ReferenceItem {
  return {
    id: 11,
    uuid: '0b5c1d7e-0000-4000-8000-000000000011',
    reference_request_id: 7,
    client_id: 'cl_1',
    referee_name: 'Florence',
    referee_email: 'florence@example.org',
    referee_organisation: 'St Thomas',
    referee_position: 'Matron',
    referee_phone: null,
    relationship_to_candidate: null,
    status: 'sent',
    score: null,
    decline_reason: null,
    form_token: 'ftok',
    answers: null,
    sent_at: EARLIER,
    opened_at: null,
    submitted_at: null,
    expires_at: LATER,
    reminder_count: 0,
    last_reminder_sent_at: null,
    created_at: EARLIER,
    updated_at: EARLIER,
    ...overrides,
  };
}

describe('reference request status labels', () => {
  it.each<[RequestStatus, string]>([
    ['pending', 'Awaiting referees'],
    ['in_progress', 'In Progress'],
    ['completed', 'Completed'],
    ['cancelled', 'Cancelled'],
    ['expired', 'Expired'],
  ])('a %s request is labelled "%s"', (status, label) => {
    expect(toRequestView(request({ status }), [], NOW)).toMatchObject({ status, status_label: label });
  });

  it('shows an open request past its expiry as expired, whether or not the sweep has run', () => {
    for (const status of ['pending', 'in_progress'] as const) {
      expect(toRequestView(request({ status, expires_at: EARLIER }), [], NOW)).toMatchObject({ status: 'expired', status_label: 'Expired', is_expired: true });
    }
    // The expiry instant itself counts as expired.
    expect(toRequestView(request({ expires_at: NOW.toISOString() }), [], NOW)).toMatchObject({ status: 'expired', is_expired: true });
    expect(toRequestView(request(), [], NOW)).toMatchObject({ status: 'pending', is_expired: false });
  });

  it('keeps a finished request as it ended, after its expiry too', () => {
    expect(toRequestView(request({ status: 'completed', expires_at: EARLIER }), [], NOW)).toMatchObject({
      status: 'completed',
      status_label: 'Completed',
      is_expired: true,
    });
    expect(toRequestView(request({ status: 'cancelled', expires_at: EARLIER }), [], NOW)).toMatchObject({ status: 'cancelled', status_label: 'Cancelled' });
  });

  it('is fully referenced once the required number of references are completed', () => {
    expect(toRequestView(request({ references_completed: 1 }), [], NOW).is_fully_referenced).toBe(false);
    expect(toRequestView(request({ references_completed: 2 }), [], NOW).is_fully_referenced).toBe(true);
  });
});

describe('reference status labels', () => {
  it.each<[ReferenceStatus, string]>([
    ['pending', 'Pending'],
    ['sent', 'Sent'],
    ['opened', 'Opened'],
    ['completed', 'Completed'],
    ['declined', 'Declined'],
    ['cancelled', 'Cancelled'],
    ['expired', 'Expired'],
  ])('a %s reference is labelled "%s"', (status, label) => {
    expect(toReferenceView(reference({ status }), request(), NOW)).toMatchObject({ status, status_label: label });
  });

  it('shows a reference still waiting for its referee as its request ended: cancelled or expired', () => {
    for (const status of ['pending', 'sent', 'opened'] as const) {
      expect(toReferenceView(reference({ status }), request({ status: 'cancelled' }), NOW)).toMatchObject({ status: 'cancelled', status_label: 'Cancelled' });
      expect(toReferenceView(reference({ status }), request({ expires_at: EARLIER }), NOW)).toMatchObject({ status: 'expired', status_label: 'Expired' });
      expect(toReferenceView(reference({ status, expires_at: EARLIER }), request(), NOW)).toMatchObject({ status: 'expired', status_label: 'Expired' });
    }
  });

  it('keeps an answered reference as the referee left it', () => {
    for (const status of ['completed', 'declined'] as const) {
      expect(toReferenceView(reference({ status }), request({ status: 'cancelled', expires_at: EARLIER }), NOW)).toMatchObject({ status });
    }
  });

  it('links the form always and the PDF once completed', () => {
    expect(toReferenceView(reference(), request(), NOW)).toMatchObject({ form_url: `${BASE}/reference-form/ftok`, pdf_url: null });
    expect(toReferenceView(reference({ status: 'completed' }), request(), NOW).pdf_url).toBe(`${BASE}/references/11/pdf`);
  });
});

describe("a request's status from its references", () => {
  const of = (required: number, ...statuses: ReferenceStatus[]) =>
    derivedStatus(
      { references_required: required },
      statuses.map((status) => ({ status })),
    );

  it('is pending until a referee has opened, answered or declined', () => {
    expect(of(2)).toBe('pending');
    expect(of(2, 'pending', 'sent')).toBe('pending');
    expect(of(2, 'opened', 'sent')).toBe('in_progress');
    expect(of(2, 'declined', 'sent')).toBe('in_progress');
    expect(of(2, 'completed', 'sent')).toBe('in_progress');
  });

  it('is completed once enough references are completed, whatever the others did', () => {
    expect(of(2, 'completed', 'completed')).toBe('completed');
    expect(of(1, 'completed', 'declined', 'sent')).toBe('completed');
    expect(of(2, 'completed', 'declined', 'declined')).toBe('in_progress');
  });
});

describe('reference scores', () => {
  const template: Template = {
    id: 1,
    name: 'Standard',
    description: '',
    questions: [
      { id: 'competence', kind: 'rating', label: 'Competence', required: true, weight: 3 },
      { id: 'reliability', kind: 'rating', label: 'Reliability', required: true, weight: 2 },
      { id: 'teamwork', kind: 'rating', label: 'Teamwork', required: false, weight: 1 },
      { id: 'concerns', kind: 'text', label: 'Concerns?', required: true },
    ],
  };

  it('is the weighted mean of the ratings on 0-100: 1 is 0 and 5 is 100', () => {
    expect(scoreOf(template, { competence: 5, reliability: 5, teamwork: 5, concerns: 'None' })).toBe(100);
    expect(scoreOf(template, { competence: 1, reliability: 1, teamwork: 1, concerns: 'None' })).toBe(0);
    expect(scoreOf(template, { competence: 3, reliability: 3, teamwork: 3 })).toBe(50);
    // (100×3 + 75×2 + 0×1) / 6
    expect(scoreOf(template, { competence: 5, reliability: 4, teamwork: 1 })).toBe(75);
  });

  it('rounds to one decimal', () => {
    // (75×3 + 50×2 + 100×1) / 6 = 70.83…
    expect(scoreOf(template, { competence: 4, reliability: 3, teamwork: 5 })).toBe(70.8);
    // (100×3 + 75×2 + 75×1) / 6 = 87.5
    expect(scoreOf(template, { competence: 5, reliability: 4, teamwork: 4 })).toBe(87.5);
  });

  it('leaves out a rating left blank, and text answers whatever they say', () => {
    // (100×3 + 25×2) / 5
    expect(scoreOf(template, { competence: 5, reliability: 2, teamwork: null, concerns: '1' })).toBe(70);
    expect(scoreOf(template, { competence: 5, reliability: 2, concerns: '5' })).toBe(70);
    expect(scoreOf(template, { concerns: '5' })).toBe(0);
  });
});
