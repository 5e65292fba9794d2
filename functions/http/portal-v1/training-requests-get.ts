import * as portalV1 from '../../api/routes/portal-v1.js';
import { getFor } from './_v1.js';

export const handler = getFor('training-requests', portalV1.getTrainingRequest);
