import { verifyClientCredentials } from '../../core/clients.js';
import type { FamilyId } from '../../core/families.js';
import { issueTokenPair, refreshTokenPair, revokeGrant } from '../../core/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { RefreshRequest, TokenRequest } from './auth-schemas.js';

/** The four token operations every family offers (design section 4), bound to a family per handler file. */

// Tokens must never sit in a shared cache.
const NO_STORE = { 'cache-control': 'no-store' };

export const exchangeToken = (family: FamilyId) =>
  httpHandler({ family, auth: 'none', body: TokenRequest }, async ({ deps, body }) => {
    const client = await verifyClientCredentials(deps, body.client_id, body.client_secret);
    return { status: 200, body: await issueTokenPair(deps, client.clientId, family), headers: NO_STORE };
  });

export const refreshToken = (family: FamilyId) =>
  httpHandler({ family, auth: 'none', body: RefreshRequest }, async ({ deps, body }) => ({
    status: 200,
    body: await refreshTokenPair(deps, body.refresh_token, family),
    headers: NO_STORE,
  }));

export const inspectToken = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ caller }) => ({
    status: 200,
    body: {
      active: true,
      client_id: caller.clientId,
      family: caller.family,
      issued_at: caller.issuedAt,
      expires_at: caller.expiresAt,
    },
  }));

export const revokeToken = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller }) => {
    await revokeGrant(deps, caller.grantId);
    return { status: 204 };
  });
