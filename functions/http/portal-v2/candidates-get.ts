import * as portalV2 from '../../api/routes/portal-v2.js';
import { getCandidateHandler } from './_candidates.js';

export const handler = getCandidateHandler(portalV2.getCandidate);
