import { getClient } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import { readableTime } from '../platform/time.js';
import { itemPdf, type PdfLayout } from '../requests/pdf.js';
import { references, type ReferenceItem, type RequestItem } from './references.js';
import { A4, TextDocument } from '../documents/pdf-text.js';
import { listTemplates, RATING_MAX, type Template } from './templates.js';

/** The completed reference as a PDF: who, about whom, the answers, the score and the dates. */
export function renderReferencePdf(input: { agency: string; request: RequestItem; reference: ReferenceItem; template: Template }): Buffer {
  const { agency, request, reference, template } = input;
  const doc = new TextDocument(
    { ...A4, margin: 56 },
    {
      title: `Employment reference for ${request.candidate_name}`,
      author: reference.referee_name,
      subject: `Reference ${reference.uuid} (request ${request.uuid})`,
      creator: 'Agency API',
      created: new Date(reference.submitted_at ?? Date.now()),
    },
  );
  const label = (text: string) => doc.text(text, { weight: 'bold', size: 10, color: '#444' });
  const value = (text: string) => doc.text(text || '—', { weight: 'regular', size: 11, color: '#000' }).moveDown(0.6);
  const day = (iso: string | null) => (iso ? readableTime(iso, 'Europe/London') : '—');

  doc.text('Employment reference', { weight: 'bold', size: 18, color: '#000' });
  doc.text(`${template.name} · requested by ${agency}`, { weight: 'regular', size: 11, color: '#444' }).moveDown(1.2);

  label('Candidate');
  value(`${request.candidate_name} <${request.candidate_email}>`);
  label('Referee');
  value(
    [
      reference.referee_name,
      `${reference.referee_position}, ${reference.referee_organisation}`,
      reference.referee_email,
      reference.referee_phone ?? '',
      reference.relationship_to_candidate ? `Relationship: ${reference.relationship_to_candidate}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  label('Dates');
  value(`Requested ${day(reference.sent_at)} · Submitted ${day(reference.submitted_at)}`);
  label('Score');
  value(`${reference.score ?? 0} / 100 (weighted mean of the ratings)`);

  doc.moveDown(0.5).text('Answers', { weight: 'bold', size: 14, color: '#000' }).moveDown(0.5);
  for (const q of template.questions) {
    const answer = String(reference.answers?.[q.id] ?? '');
    label(q.label);
    value(q.kind === 'rating' && answer ? `${answer} / ${RATING_MAX}` : answer);
  }
  doc.moveDown(1).text(`Reference ${reference.uuid} · request ${request.uuid}`, { weight: 'regular', size: 8, color: '#666' });
  return doc.toBuffer();
}

/** A reference has a PDF once it is completed. */
const REFERENCE_PDF: PdfLayout<RequestItem, ReferenceItem> = {
  ready: (reference) => reference.status === 'completed',
  notReady: (id) => `Reference ${id} has no PDF until it is completed`,
  async render(deps, request, reference) {
    const [client, templates] = await Promise.all([getClient(deps, request.client_id), listTemplates(deps)]);
    const template = templates.find((t) => t.id === request.template_id)!;
    return renderReferencePdf({ agency: client?.name ?? '', request, reference, template });
  },
};

/** The PDF of one of the caller's references; not-found until it is completed, and for another client's. */
export const referencePdf = (deps: Deps, clientId: string, referenceId: number): Promise<Buffer> =>
  itemPdf(deps, references, REFERENCE_PDF, clientId, referenceId);
