// How many days a listing or a search of events may span (imports nothing, for the schemas).

/** Listing practical training events covers at most this many days, by start. */
export const EVENT_RANGE_DAYS = 92;

/** The practical training legacy search covers at most this many days. */
export const LEGACY_SEARCH_DAYS = 31;
