import { exchangeToken } from '../shared/auth.js';

export const handler = exchangeToken('clinical-interview');
