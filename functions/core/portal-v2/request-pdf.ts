import { getClient } from '../access/clients.js';
import { listUsers } from '../access/team.js';
import { A4, TextDocument } from '../documents/pdf-text.js';
import type { Deps } from '../platform/deps.js';
import { readableTime } from '../platform/time.js';
import { ITEM_LABELS, type GroupItem, type GroupRequest } from '../requests/group.js';
import type { GroupEngineKind } from '../requests/group-kind.js';
import { effectiveItemStatus, effectiveStatus } from '../requests/status.js';
import { requireRequest } from '../requests/store.js';
import { kindOf } from './request-groups.js';

/**
 * A request's PDF summary: its items, statuses, dates,
 * reviewers and each file's SHA-256; never a file's contents.
 */
export function renderGroupPdf(
  kind: GroupEngineKind,
  input: { agency: string; request: GroupRequest; items: GroupItem[]; now: Date; reviewers?: ReadonlyMap<number, string> },
): Buffer {
  const { agency, request, items, now, reviewers } = input;
  const reviewer = (id: number) => (reviewers?.has(id) ? `${reviewers.get(id)} (team user ${id})` : `team user ${id}`);
  const decl = kind.declaration;
  const status = effectiveStatus(request, now);
  const doc = new TextDocument(
    { ...A4, margin: 56 },
    { title: `${decl.title} for ${request.candidate_name}`, author: agency, subject: `${decl.title} ${request.uuid}`, creator: 'Agency API', created: now },
  );
  const label = (text: string) => doc.text(text, { weight: 'bold', size: 10, color: '#444' });
  const value = (text: string) => doc.text(text || '-', { weight: 'regular', size: 11, color: '#000' }).moveDown(0.6);
  const day = (iso: string | null) => (iso ? readableTime(iso, 'Europe/London') : '-');

  doc.text(decl.title, { weight: 'bold', size: 18, color: '#000' });
  doc
    .text(`Requested by ${agency} · ${decl.labels[status]}${request.outcome ? ` · outcome ${request.outcome}` : ''}`, {
      weight: 'regular',
      size: 11,
      color: '#444',
    })
    .moveDown(1.2);
  label('Candidate');
  value(`${request.candidate_name} <${request.candidate_email}>`);
  label('Dates');
  value(`Created ${day(request.created_at)} · Expires ${day(request.expires_at)}`);
  doc.moveDown(0.5).text('Items', { weight: 'bold', size: 14, color: '#000' }).moveDown(0.5);
  for (const item of items) {
    const itemStatus = effectiveItemStatus(item, request, kind.outstanding, now);
    label(`${decl.itemType(item.type).label} (${item.type}): ${ITEM_LABELS[itemStatus] ?? itemStatus}`);
    value(
      [
        ...decl.pdfLines(item).slice(1),
        `From ${item.actor.name} <${item.actor.email}>`,
        `Submitted ${day(item.submitted_at)} · Reviewed ${day(item.reviewed_at)}${item.reviewed_by ? ` by ${reviewer(item.reviewed_by)}` : ''}`,
        ...(item.rejection_reason ? [`Rejected: ${item.rejection_reason}`] : []),
        ...(item.file
          ? [
              `File ${item.file.name}, ${item.file.size} bytes, SHA-256 ${item.file.sha256}${item.file.purged_at ? ` (purged ${day(item.file.purged_at)})` : ''}`,
            ]
          : []),
      ].join('\n'),
    );
  }
  doc.moveDown(1).text(`Request ${request.uuid}`, { weight: 'regular', size: 8, color: '#666' });
  return doc.toBuffer();
}

export async function groupRequestPdf(deps: Deps, clientId: string, segment: string, id: number): Promise<Buffer> {
  const kind = kindOf(segment);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  // Reviewers by name: the team is read only when someone of it reviewed an item.
  const [client, team] = await Promise.all([getClient(deps, clientId), items.some((i) => i.reviewed_by) ? listUsers(deps, clientId) : []]);
  const reviewers = new Map(team.map((u) => [u.id, u.name]));
  return renderGroupPdf(kind, { agency: client?.name ?? '', request, items, now: deps.clock(), reviewers });
}
