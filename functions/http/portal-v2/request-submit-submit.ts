import * as portalV2 from '../../api/routes/portal-v2.js';
import { submitPage } from './_request-pages.js';

export const handler = submitPage('submission', portalV2.submitRequestSubmission);
