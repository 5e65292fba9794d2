import * as v from 'valibot';

/** Bodies of the token operations. */

export const TokenRequest = v.object({
  client_id: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
  client_secret: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});

export const RefreshRequest = v.object({
  refresh_token: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
});
