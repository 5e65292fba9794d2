/**
 * Domain errors: what went wrong in the business's words. The HTTP edge maps
 * each code to a status and a problem type in one place
 * (functions/middleware/problems.ts); core code never speaks HTTP.
 */
export type DomainErrorCode =
  | 'invalid-credentials'
  | 'invalid-token'
  | 'not-found'
  | 'client-exists'
  | 'rate-limited'
  | 'invalid-catalog'
  | 'hold-conflict'
  | 'hold-not-found'
  | 'hold-expired'
  | 'hold-used'
  | 'slot-unavailable'
  | 'event-full'
  | 'event-unavailable'
  | 'booking-closed'
  | 'cancellation-not-allowed'
  | 'insufficient-credits'
  | 'insufficient-balance'
  | 'invoice-disabled'
  | 'idempotency-key-reuse'
  | 'idempotency-in-flight'
  | 'invalid-cursor'
  | 'invalid-state'
  | 'webhook-url-refused'
  | 'forbidden'
  | 'limit-reached'
  | 'payment-window-closed'
  | 'job-running'
  | 'subject-has-active-bookings'
  | 'invalid-field'
  | 'certificate-unavailable'
  | 'worker-duplicate'
  | 'worker-archived'
  | 'alert-resolved'
  | 'evidence-integrity'
  | 'acting-user-not-permitted'
  | 'last-owner'
  | 'owner-required'
  | 'team-user-duplicate'
  | 'role-built-in'
  | 'role-in-use'
  | 'import-invalid-file'
  | 'import-queue-full'
  | 'payments-unavailable'
  | 'invalid-signature';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;

/** A request field the rules refuse (an unknown candidate, say): a 422 that points at the field. */
export const fieldRefusal = (pointer: string, message: string) => new DomainError('invalid-field', message, { pointer });
