import * as portalV1 from '../../api/routes/portal-v1.js';
import { createFor } from './_v1-create.js';

export const handler = createFor('occupational-health-requests', portalV1.createOccupationalHealthRequest);
