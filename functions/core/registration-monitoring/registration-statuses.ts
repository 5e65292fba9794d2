// Imports nothing, so the family's response shapes can use it without carrying the SDK.

/** What a professional register says of a registration, normalised across registers. */
export const REGISTRATION_STATUSES = [
  'registered',
  'registered_without_licence',
  'not_practising',
  'lapsed',
  'suspended',
  'interim_suspension',
  'removed',
  'voluntarily_removed',
  'not_found',
] as const;
