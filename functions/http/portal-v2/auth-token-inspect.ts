import { inspectToken } from '../shared/auth.js';

export const handler = inspectToken('portal-v2');
