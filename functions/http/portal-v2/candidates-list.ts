import * as portalV2 from '../../api/routes/portal-v2.js';
import { listCandidatesHandler } from './_candidates.js';

export const handler = listCandidatesHandler(portalV2.listCandidates);
