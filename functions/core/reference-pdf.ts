import PDFDocument from 'pdfkit';
import { getClient } from './clients.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { ReferenceItem, RequestItem } from './reference-model.js';
import { findReference } from './reference-requests.js';
import { listTemplates, RATING_MAX, type Template } from './templates.js';

/** The completed reference as a PDF: who, about whom, the answers, the score and the dates. */
export function renderReferencePdf(input: { agency: string; request: RequestItem; reference: ReferenceItem; template: Template }): Promise<Buffer> {
  const { agency, request, reference, template } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Employment reference for ${request.candidate_name}`,
      Author: reference.referee_name,
      Subject: `Reference ${reference.uuid} (request ${request.uuid})`,
      Creator: 'Agency API',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const label = (text: string) => doc.font('Helvetica-Bold').fontSize(10).fillColor('#444').text(text);
  const value = (text: string) => doc.font('Helvetica').fontSize(11).fillColor('#000').text(text || '—').moveDown(0.6);
  const day = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/London' }) : '—');

  doc.font('Helvetica-Bold').fontSize(18).text('Employment reference');
  doc.font('Helvetica').fontSize(11).fillColor('#444').text(`${template.name} · requested by ${agency}`).moveDown(1.2);

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

  doc.moveDown(0.5).font('Helvetica-Bold').fontSize(14).fillColor('#000').text('Answers').moveDown(0.5);
  for (const q of template.questions) {
    const answer = reference.answers?.[q.id] ?? '';
    label(q.label);
    value(q.kind === 'rating' && answer ? `${answer} / ${RATING_MAX}` : answer);
  }
  doc.moveDown(1).font('Helvetica').fontSize(8).fillColor('#666').text(`Reference ${reference.uuid} · request ${request.uuid}`);
  doc.end();
  return done;
}

/** The PDF of one of the caller's references; not-found until it is completed, and for another client's. */
export async function referencePdf(deps: Deps, clientId: string, referenceId: number): Promise<Buffer> {
  const { request, reference } = await findReference(deps, clientId, referenceId);
  if (reference.status !== 'completed') throw new DomainError('not-found', `Reference ${referenceId} has no PDF until it is completed`);
  const [client, templates] = await Promise.all([getClient(deps, clientId), listTemplates(deps)]);
  const template = templates.find((t) => t.id === request.template_id)!;
  return renderReferencePdf({ agency: client?.name ?? '', request, reference, template });
}
