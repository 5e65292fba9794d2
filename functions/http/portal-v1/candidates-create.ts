import * as portalV1 from '../../api/routes/portal-v1.js';
import { createCandidateHandler } from '../portal-v2/_candidates.js';

export const handler = createCandidateHandler(portalV1.createCandidate);
