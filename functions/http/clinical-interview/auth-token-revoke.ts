import { revokeToken } from '../shared/auth.js';

export const handler = revokeToken('clinical-interview');
