import * as portalV1 from '../../api/routes/portal-v1.js';
import { createFor } from './_v1-create.js';

export const handler = createFor('certificate-requests', portalV1.createCertificateRequest);
