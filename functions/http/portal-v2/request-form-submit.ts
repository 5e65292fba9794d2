import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { submitPage } from './_request-pages.js';

export const handler = submitPage('form', requestGroups.submitRequestForm);
