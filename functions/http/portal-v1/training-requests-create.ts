import * as portalV1 from '../../api/routes/portal-v1.js';
import { training } from '../../core/portal-v2/groups/training.js';
import { createFor } from './_v1-create.js';

export const handler = createFor(training, portalV1.createTrainingRequest);
