import * as portalV1 from '../../api/routes/portal-v1.js';
import { certificate } from '../../core/portal-v2/groups/certificate.js';
import { createFor } from './_v1-create.js';

export const handler = createFor(certificate, portalV1.createCertificateRequest);
