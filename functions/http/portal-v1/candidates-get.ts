import * as portalV1 from '../../api/routes/portal-v1.js';
import { getCandidateHandler } from '../portal-v2/_candidates.js';

export const handler = getCandidateHandler(portalV1.getCandidate);
