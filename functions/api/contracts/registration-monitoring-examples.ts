import type * as v from 'valibot';
import type { Example } from './examples.js';
import * as M from './registration-monitoring-responses.js';

/** Example resources of the registration monitoring family, for its OpenAPI document. */

export const WORKER = {
  id: 41,
  first_name: 'Grace',
  last_name: 'Adeyemi',
  external_ref: 'EMP-0193',
  email: 'grace.adeyemi@example.org',
  phone: '+447700900123',
  job_role: 'Registered Nurse',
  registration: { register: 'nmc', number: '12A9001B', profession: null },
  monitoring: { enabled: true, frequency: 'daily', paused_until: null, next_check_at: '2026-11-21T09:17:00+00:00', last_checked_at: '2026-11-20T09:17:04+00:00' },
  outcome: 'clear',
  registration_status: 'registered',
  expires_on: '2028-03-31',
  open_alerts: 0,
  archived_at: null,
  created_at: '2026-11-02T14:12:09+00:00',
  updated_at: '2026-11-20T09:17:04+00:00',
};

export const MONITORING_EXAMPLES: [v.GenericSchema, Example][] = [[M.Worker, WORKER]];
