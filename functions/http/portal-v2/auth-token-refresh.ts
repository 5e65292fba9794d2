import { refreshToken } from '../shared/auth.js';

export const handler = refreshToken('portal-v2');
