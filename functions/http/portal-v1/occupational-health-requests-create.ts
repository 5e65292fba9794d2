import * as portalV1 from '../../api/routes/portal-v1.js';
import { occupationalHealth } from '../../core/portal-v2/groups/occupational-health.js';
import { createFor } from './_v1-create.js';

export const handler = createFor(occupationalHealth, portalV1.createOccupationalHealthRequest);
