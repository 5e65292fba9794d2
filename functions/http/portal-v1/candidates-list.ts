import * as portalV1 from '../../api/routes/portal-v1.js';
import { listCandidatesHandler } from '../portal-v2/_candidates.js';

export const handler = listCandidatesHandler(portalV1.listCandidates);
