/**
 * Imported first by a test file: a portal v1 brownout window in the future,
 * set before the edge reads the deprecation schedules (once, when it loads),
 * so that a test can move the clock into it.
 */
export const PORTAL_V1_BROWNOUT = { start: '2027-03-02T14:00:00.000Z', end: '2027-03-02T15:00:00.000Z' };
process.env.PORTAL_V1_BROWNOUTS = `${PORTAL_V1_BROWNOUT.start}/${PORTAL_V1_BROWNOUT.end}`;
