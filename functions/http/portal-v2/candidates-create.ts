import * as portalV2 from '../../api/routes/portal-v2.js';
import { createCandidateHandler } from './_candidates.js';

export const handler = createCandidateHandler(portalV2.createCandidate);
