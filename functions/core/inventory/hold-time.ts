/**
 * How long a hold keeps a slot or seat: the same in every family. User-facing
 * text (OpenAPI, pages, e-mails) interpolates HOLD_MINUTES rather than copying
 * the number; a guard-rail test checks the docs agree.
 */
export const HOLD_MINUTES = 30;
export const HOLD_SECONDS = HOLD_MINUTES * 60;
