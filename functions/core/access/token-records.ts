import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';

/** The stored shape of tokens and grants, and their keys (tokens.ts issues and checks them, revocation.ts revokes them). */

export type TokenKind = 'access' | 'refresh';

export interface TokenItem {
  pk: string;
  sk: string;
  entity: 'token';
  kind: TokenKind;
  client_id: string;
  family: FamilyId;
  grant_id: string;
  /** The client's grant generation when the grant began; absent on tokens from before generations: 0. */
  client_generation?: number;
  /** No token of the grant lives past this; absent on tokens from before the cap. */
  grant_expires_at?: string;
  issued_at: string;
  expires_at: string;
  ttl: number;
  revoked_at?: string;
  spent_at?: string;
}

export interface GrantItem {
  pk: string;
  sk: string;
  entity: 'grant';
  grant_id: string;
  client_id: string;
  family: FamilyId;
  version: number;
  created_at: string;
  expires_at: string;
  ttl: number;
  revoked_at?: string;
}

const TOKEN = TABLE_KEYS.token;
const GRANT = TABLE_KEYS.grant;
export const tokenKeys = {
  token: (hash: string) => ({ pk: key(TOKEN.pk, hash), sk: TOKEN.sk.token }),
  grant: (grantId: string) => ({ pk: key(GRANT.pk, grantId), sk: GRANT.sk.grant }),
  /** One small item per token under its grant, so revoking can find them all. */
  grantMember: (grantId: string, hash: string) => ({ pk: key(GRANT.pk, grantId), sk: key(GRANT.sk.member, hash) }),
  grantMemberPrefix: GRANT.sk.member,
};
