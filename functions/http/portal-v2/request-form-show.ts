import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { showPage } from './_request-pages.js';

export const handler = showPage('form', requestGroups.showRequestForm);
