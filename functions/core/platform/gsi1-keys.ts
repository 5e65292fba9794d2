import type { PartitionKind } from './key-registry.js';

/** The partition kinds of the index `gsi1` (gsi1pk, gsi1sk), as ./table-keys.ts is for the table. */

export const clients = { pk: 'CLIENTS', sk: { listing: '' } } as const satisfies PartitionKind;
export const bookingById = { pk: 'BOOKING#', sk: { booking: 'BOOKING' } } as const satisfies PartitionKind;
export const ledgerMonth = { pk: 'LEDGER_MONTH#', sk: { entry: '' } } as const satisfies PartitionKind;
export const openReferenceRequests = { pk: 'OPEN_REFREQ', sk: { open: '' } } as const satisfies PartitionKind;
export const openGroupRequests = { pk: 'OPEN_GREQ#', sk: { open: '' } } as const satisfies PartitionKind;
/** Closed request groups by the day their retention ends (the purge schedule). */
export const groupPurge = { pk: 'GROUP_PURGE#', sk: { due: '' } } as const satisfies PartitionKind;
export const trainingEventsByStart = { pk: 'TEVENTS_BY_START#', sk: { event: '' } } as const satisfies PartitionKind;
// A family's unit locks of one month, by day: `LOCKS#<family>#<yyyy-mm>` / `<date>#<time>#<unit>`.
export const locksByMonth = { pk: 'LOCKS#', sk: { lock: '' } } as const satisfies PartitionKind;
export const openHolds = { pk: 'OPEN_HOLD#', sk: { hold: '' } } as const satisfies PartitionKind;
// A deprecated family's callers on one UTC day: `DEPRECATED_CALLS#<family>#<date>` / client id.
export const deprecatedCalls = { pk: 'DEPRECATED_CALLS#', sk: { client: '' } } as const satisfies PartitionKind;
/** Every client's data subject audit records, newest last: `DSR_AUDITS` / `<at>#<client>#<family>#<job>` (`ops data-subjects list`). */
export const dataSubjectAudits = { pk: 'DSR_AUDITS', sk: { record: '' } } as const satisfies PartitionKind;
