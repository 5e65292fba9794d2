import * as v from 'valibot';
import { built } from './fields.js';

/** Bodies of the token operations. */

export const TokenRequest = /* @__PURE__ */ built(() =>
  v.object({
    client_id: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
    client_secret: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  }),
);

export const RefreshRequest = /* @__PURE__ */ built(() =>
  v.object({
    refresh_token: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  }),
);
