import type { GroupDeclaration } from '../requests/group.js';
import { groupEngineKind, type GroupEngineKind, type GroupLinks } from '../requests/group-kind.js';
import { lifeSupport, practicalTraining } from './groups/booking.js';

/**
 * The booking kinds as engine kinds, light enough for the course families'
 * own functions: a booking made with a request's invite moves the request's
 * item in its own transaction.
 */

const noPortalPage = (): string => {
  throw new Error("A booking kind's item is answered on its course family's invite page: the portal has no page for it");
};
/** Its items carry neither a submission token nor a form token, so no portal page link is ever made. */
const NO_PORTAL_PAGES: GroupLinks = { submission: noPortalPage, form: noPortalPage };

/** A booking kind's engine kind: the family's invite e-mail is the only e-mail (rule 8), so nobody is reminded here. */
export function bookingEngineKind(decl: GroupDeclaration): GroupEngineKind {
  const kind = groupEngineKind(decl, NO_PORTAL_PAGES, () => {
    throw new Error(`${decl.title}s send no reminders`);
  });
  kind.remindable = [];
  return kind;
}

export const BOOKING_KINDS: Readonly<Record<string, GroupEngineKind>> = Object.fromEntries(
  [practicalTraining, lifeSupport].map((decl) => [decl.kind, bookingEngineKind(decl)]),
);
