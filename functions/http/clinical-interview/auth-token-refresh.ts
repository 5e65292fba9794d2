import { refreshToken } from '../shared/auth.js';

export const handler = refreshToken('clinical-interview');
