import type { Deps } from '../platform/deps.js';
import type { SubjectFinder } from './adapter.js';
import { activeAmong, findErasable } from './find.js';
import { activeRefusal, queueSubjectRequest, type Requester } from './requests.js';
import { subjectHash } from './subject.js';

/** POST /data-subjects/erasures: refused (409) while the person has a booking to come or a payment open; otherwise queued as a job. */
export async function startErasure(deps: Deps, finder: SubjectFinder, by: Requester, email: string) {
  const active = activeAmong(finder, (await findErasable(deps, finder, by.clientId, subjectHash(email))).items, deps.clock());
  if (active.length > 0) throw activeRefusal(active);
  return queueSubjectRequest(deps, finder.family, 'erasure', by, email);
}
