import { exchangeToken } from '../shared/auth.js';

export const handler = exchangeToken('portal-v2');
