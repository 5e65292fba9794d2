import * as v from 'valibot';
import { built, email } from './fields.js';

/** A data subject request: the person, by the e-mail address the agency knows them by (matched without regard to case). */
export const DataSubjectRequest = /* @__PURE__ */ built(() =>
  v.object({ email: v.pipe(email, v.description('The person’s e-mail address; matched without regard to case')) }),
);
