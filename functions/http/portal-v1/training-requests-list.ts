import * as portalV1 from '../../api/routes/portal-v1.js';
import { listFor } from './_v1.js';

export const handler = listFor('training-requests', portalV1.listTrainingRequests);
