import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths as ClinicalInterview } from './generated/clinical-interview.js';
import type { paths as PortalV1 } from './generated/portal-v1.js';
import type { paths as PortalV2 } from './generated/portal-v2.js';
import type { paths as PracticalTraining } from './generated/practical-training.js';
import type { paths as PracticalTrainingLegacy } from './generated/practical-training-legacy.js';
import type { paths as RegistrationMonitoring } from './generated/registration-monitoring.js';
import type { paths as Services } from './generated/services.js';
import type { paths as VirtualLifeSupport } from './generated/virtual-life-support.js';

/**
 * A typed client of the agency booking API: the paths, bodies, queries and
 * answers of each API family, as its OpenAPI document states them (the
 * types are generated from the documents, `npm run generate:clients`), over
 * openapi-fetch. Every call answers `{ data, error, response }`: `data` on a
 * 2xx, `error` (an RFC 9457 problem) otherwise.
 */

export interface Families {
  'clinical-interview': ClinicalInterview;
  'portal-v2': PortalV2;
  'practical-training': PracticalTraining;
  'virtual-life-support': VirtualLifeSupport;
  services: Services;
  'practical-training-legacy': PracticalTrainingLegacy;
  'registration-monitoring': RegistrationMonitoring;
  'portal-v1': PortalV1;
}
export type Family = keyof Families;

/** Where each family lives under the API's root URL. */
export const FAMILY_PATHS: Record<Family, string> = {
  'clinical-interview': '/clinical-interview',
  'portal-v2': '/portal/v2',
  'practical-training': '/practical-training',
  'virtual-life-support': '/virtual-life-support',
  services: '/services',
  'practical-training-legacy': '/practical-training-legacy',
  'registration-monitoring': '/registration-monitoring',
  'portal-v1': '/portal/v1',
};

export interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

/** A family's client at the API's root URL (`https://api.example.com`), with a bearer token when given. */
export function familyClient<F extends Family>(
  family: F,
  rootUrl: string,
  options: { token?: string } & Omit<ClientOptions, 'baseUrl'> = {},
): Client<Families[F]> {
  const { token, headers, ...rest } = options;
  return createClient<Families[F]>({
    ...rest,
    baseUrl: rootUrl.replace(/\/$/, '') + FAMILY_PATHS[family],
    headers: { ...(headers as Record<string, string> | undefined), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** The families with their own token operations; the facades take their parent's tokens. */
export type TokenFamily = 'clinical-interview' | 'portal-v2' | 'practical-training' | 'virtual-life-support' | 'registration-monitoring';

/** Signs in with the client's credentials and answers a client of the family that carries the access token. */
export async function signIn<F extends TokenFamily>(family: F, rootUrl: string, credentials: ClientCredentials): Promise<Client<Families[F]>> {
  const anonymous = createClient<ClinicalInterview>({ baseUrl: rootUrl.replace(/\/$/, '') + FAMILY_PATHS[family] });
  const { data, error, response } = await anonymous.POST('/auth/token', { body: credentials });
  if (!data) throw new Error(`Sign-in to ${family} failed with ${response.status}: ${JSON.stringify(error)}`);
  return familyClient(family, rootUrl, { token: data.access_token });
}

export type { ClinicalInterview, PortalV1, PortalV2, PracticalTraining, PracticalTrainingLegacy, RegistrationMonitoring, Services, VirtualLifeSupport };
