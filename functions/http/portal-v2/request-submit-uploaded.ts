import * as portalV2 from '../../api/routes/portal-v2.js';
import { uploadedPage } from './_request-pages.js';

export const handler = uploadedPage('submission', portalV2.requestSubmissionUploaded);
