import { inspectToken } from '../shared/auth.js';

export const handler = inspectToken('clinical-interview');
