import { revokeToken } from '../shared/auth.js';

export const handler = revokeToken('portal-v2');
