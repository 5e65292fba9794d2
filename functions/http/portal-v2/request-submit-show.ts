import * as portalV2 from '../../api/routes/portal-v2.js';
import { showPage } from './_request-pages.js';

export const handler = showPage('submission', portalV2.showRequestSubmission);
