import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { uploadedPage } from './_request-pages.js';

export const handler = uploadedPage('submission', requestGroups.requestSubmissionUploaded);
