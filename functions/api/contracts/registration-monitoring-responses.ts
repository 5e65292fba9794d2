import * as v from 'valibot';

/** Response shapes of the registration monitoring family (design/registration-monitoring.md); strict, as in responses.ts. */

const str = v.string();
const int = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const nullable = <T extends v.GenericSchema>(s: T) => v.nullable(s);

export const Worker = v.strictObject({
  id: int,
  first_name: str,
  last_name: str,
  external_ref: nullable(str),
  email: nullable(str),
  phone: nullable(str),
  job_role: nullable(str),
  registration: v.strictObject({ register: v.picklist(['nmc', 'hcpc', 'gmc']), number: str, profession: nullable(str) }),
  monitoring: v.strictObject({
    enabled: v.boolean(),
    frequency: v.picklist(['daily', 'weekly']),
    paused_until: nullable(str),
    next_check_at: nullable(timestamp),
    last_checked_at: nullable(timestamp),
  }),
  outcome: v.picklist(['unverified', 'clear', 'review', 'fail']),
  registration_status: nullable(str),
  expires_on: nullable(str),
  open_alerts: int,
  archived_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
});
