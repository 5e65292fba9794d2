import { REGISTERS, type Register } from './registration-vocabulary.js';
import { isCalendarDate } from './time.js';
import { isScannerName, SCANNER_NAMES, type ScannerName } from '../documents/scanner.js';

/** Configuration read from the environment once, at cold start. */

/**
 * The process's environment: read here and nowhere else under functions/ (a
 * guard-rail test), and each variable any module reads is listed under
 * Settings in docs/operations.md (another).
 */
export const environment = (): NodeJS.ProcessEnv => (typeof process === 'undefined' ? {} : process.env);

export class MissingConfigError extends Error {
  constructor(name: string) {
    super(`Missing required environment variable ${name}`);
    this.name = 'MissingConfigError';
  }
}

export function requireEnv(name: string, env: NodeJS.ProcessEnv = environment()): string {
  const value = env[name];
  if (value === undefined || value === '') throw new MissingConfigError(name);
  return value;
}

function intEnv(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`Environment variable ${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

export interface CoreConfig {
  tableName: string;
  serviceTimeZone: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A grant (the token pairs descending from one exchange) ends this long after the exchange, whatever its refreshes. */
  grantMaxLifetimeSeconds: number;
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  /** Anonymous callers. */
  authFailuresPerAddress: { limit: number; windowSeconds: number };
  /** Failed exchanges for one client id from one source address (EXCHANGE_FAILURES_PER_CLIENT_ADDRESS_PER_15_MINUTES). */
  exchangeFailuresPerClientAddress: { limit: number; windowSeconds: number };
  /** The ceiling past which a client id is refused for everyone (EXCHANGE_FAILURES_PER_CLIENT_PER_15_MINUTES). */
  exchangeFailuresPerClient: { limit: number; windowSeconds: number };
  /** A public link's requests: per source address per link, and a ceiling per link well above any real candidate traffic. */
  linkRequestsPerAddress: { limit: number; windowSeconds: number };
  linkRequestsPerToken: { limit: number; windowSeconds: number };
  /** Seats of one event or session held at once through one client's invites (INVITE_SEATS_PER_SESSION). */
  inviteSeatsPerSession: number;
  /** An unpaid booking made anonymously through a public booking link must be paid within this many hours (LINK_PAYMENT_HOURS). */
  linkPaymentHours: number;
  /** Video meetings are rooms under this URL (Jitsi Meet by default: a room exists once someone joins it). */
  videoMeetingBaseUrl: string;
  /** The Services feed answers changes once they are this old: a write that read its clock earlier has committed by then. */
  feedSettleSeconds: number;
  /** The sender of e-mails (EMAIL_FROM); calendar invitations name it as organiser. Unset: the messaging default. */
  emailFrom?: string;
  /** Calendar dates that are not working days (BANK_HOLIDAYS, comma-separated; default: England and Wales 2026–2030). */
  bankHolidays: readonly string[];
  /** Virtual life-support kit is posted this many working days ahead (DISPATCH_LEAD_WORKING_DAYS). */
  dispatchLeadWorkingDays: number;
  /** The virus-scanner adapter uploads pass through (FILE_SCANNER: `none`, the default, or `test` in the local stack only). */
  fileScanner: ScannerName;
  /** Registration monitoring's price per completed check, in pence, by register (MONITORING_UNIT_PRICES, `nmc=50,hcpc=50,gmc=75`). */
  monitoringUnitPrices: Readonly<Record<Register, number>>;
  /** Calls per second to each register (REGISTER_RATE_PER_SECOND), refilling its adapter's token bucket. */
  registerRatePerSecond: number;
  /** Where evidence is written once: the Object Lock bucket in the cloud (EVIDENCE_BUCKET), else read-only files under EVIDENCE_DIR. */
  evidenceBucket?: string;
  evidenceDir?: string;
  /** Years a check's evidence is kept, write-once (EVIDENCE_RETENTION_YEARS). */
  evidenceRetentionYears: number;
}

export const DEFAULT_MONITORING_UNIT_PRICES: Readonly<Record<Register, number>> = { nmc: 50, hcpc: 50, gmc: 75 };

/** `register=pence` pairs; registers left out keep their default price. */
function pricesEnv(name: string, env: NodeJS.ProcessEnv): Readonly<Record<Register, number>> {
  const raw = env[name];
  const prices = { ...DEFAULT_MONITORING_UNIT_PRICES };
  if (raw === undefined || raw === '') return prices;
  for (const pair of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [register, pence] = pair.split('=').map((p) => p.trim());
    if (!(REGISTERS as readonly string[]).includes(register ?? '') || !/^\d{1,6}$/.test(pence ?? '')) {
      throw new Error(`Environment variable ${name} must be comma-separated register=pence pairs (registers ${REGISTERS.join(', ')}), got "${pair}"`);
    }
    prices[register as Register] = Number(pence);
  }
  return prices;
}

function scannerEnv(env: NodeJS.ProcessEnv): ScannerName {
  const raw = env.FILE_SCANNER || 'none';
  if (!isScannerName(raw)) throw new Error(`Environment variable FILE_SCANNER must be one of ${SCANNER_NAMES.join(', ')}, got "${raw}"`);
  // The test adapter passes every file but the EICAR test string: deployed, its "clean" would be a claim nobody checked.
  if (raw === 'test' && env.LOCAL_STACK !== '1') throw new Error('FILE_SCANNER=test is for the local stack only (LOCAL_STACK=1)');
  return raw;
}

/** England and Wales bank holidays (gov.uk to 2027; later years by the same rules, substitute days included), the default of BANK_HOLIDAYS. */
export const ENGLAND_BANK_HOLIDAYS = [
  '2026-01-01',
  '2026-04-03',
  '2026-04-06',
  '2026-05-04',
  '2026-05-25',
  '2026-08-31',
  '2026-12-25',
  '2026-12-28',
  '2027-01-01',
  '2027-03-26',
  '2027-03-29',
  '2027-05-03',
  '2027-05-31',
  '2027-08-30',
  '2027-12-27',
  '2027-12-28',
  '2028-01-03',
  '2028-04-14',
  '2028-04-17',
  '2028-05-01',
  '2028-05-29',
  '2028-08-28',
  '2028-12-25',
  '2028-12-26',
  '2029-01-01',
  '2029-03-30',
  '2029-04-02',
  '2029-05-07',
  '2029-05-28',
  '2029-08-27',
  '2029-12-25',
  '2029-12-26',
  '2030-01-01',
  '2030-04-19',
  '2030-04-22',
  '2030-05-06',
  '2030-05-27',
  '2030-08-26',
  '2030-12-25',
  '2030-12-26',
];

function datesEnv(name: string, fallback: readonly string[], env: NodeJS.ProcessEnv): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const dates = raw
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const d of dates) if (!isCalendarDate(d)) throw new Error(`Environment variable ${name} must be comma-separated YYYY-MM-DD dates, got "${d}"`);
  return dates;
}

export function loadConfig(env: NodeJS.ProcessEnv = environment()): CoreConfig {
  return {
    tableName: requireEnv('TABLE_NAME', env),
    serviceTimeZone: env.SERVICE_TIME_ZONE || 'Europe/London',
    accessTokenTtlSeconds: intEnv('ACCESS_TOKEN_TTL_SECONDS', 3600, env),
    refreshTokenTtlSeconds: intEnv('REFRESH_TOKEN_TTL_SECONDS', 2_592_000, env),
    grantMaxLifetimeSeconds: intEnv('GRANT_MAX_LIFETIME_SECONDS', 90 * 86_400, env),
    rateLimitRequests: intEnv('RATE_LIMIT_REQUESTS', 600, env),
    rateLimitWindowSeconds: intEnv('RATE_LIMIT_WINDOW_SECONDS', 60, env),
    authFailuresPerAddress: { limit: intEnv('AUTH_FAILURES_PER_ADDRESS_PER_MINUTE', 20, env), windowSeconds: 60 },
    exchangeFailuresPerClientAddress: { limit: intEnv('EXCHANGE_FAILURES_PER_CLIENT_ADDRESS_PER_15_MINUTES', 10, env), windowSeconds: 900 },
    exchangeFailuresPerClient: { limit: intEnv('EXCHANGE_FAILURES_PER_CLIENT_PER_15_MINUTES', 100, env), windowSeconds: 900 },
    linkRequestsPerAddress: { limit: intEnv('LINK_REQUESTS_PER_ADDRESS_PER_MINUTE', 30, env), windowSeconds: 60 },
    linkRequestsPerToken: { limit: intEnv('LINK_REQUESTS_PER_TOKEN_PER_MINUTE', 600, env), windowSeconds: 60 },
    inviteSeatsPerSession: intEnv('INVITE_SEATS_PER_SESSION', 3, env),
    linkPaymentHours: intEnv('LINK_PAYMENT_HOURS', 2, env),
    videoMeetingBaseUrl: (env.VIDEO_MEETING_BASE_URL || 'https://meet.jit.si').replace(/\/$/, ''),
    feedSettleSeconds: intEnv('FEED_SETTLE_SECONDS', 5, env),
    emailFrom: env.EMAIL_FROM || undefined,
    bankHolidays: datesEnv('BANK_HOLIDAYS', ENGLAND_BANK_HOLIDAYS, env),
    dispatchLeadWorkingDays: intEnv('DISPATCH_LEAD_WORKING_DAYS', 3, env),
    fileScanner: scannerEnv(env),
    monitoringUnitPrices: pricesEnv('MONITORING_UNIT_PRICES', env),
    registerRatePerSecond: intEnv('REGISTER_RATE_PER_SECOND', 10, env),
    evidenceRetentionYears: intEnv('EVIDENCE_RETENTION_YEARS', 6, env),
    evidenceBucket: env.EVIDENCE_BUCKET || undefined,
    evidenceDir: env.EVIDENCE_DIR || undefined,
  };
}

/** The environment variable that carries a queue's URL (queue ids are in lib/queues.ts). */
export const queueUrlEnv = (id: string): string => `QUEUE_URL_${id.toUpperCase()}`;
