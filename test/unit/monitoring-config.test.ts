import { ENGLAND_BANK_HOLIDAYS, loadConfig } from '../../functions/core/platform/config.js';

/** Registration monitoring's settings and the bank holidays: defaults, overrides, and a malformed value refused by name. */

const env = (extra: Record<string, string> = {}) => ({ TABLE_NAME: 't', ...extra });

it('bank holidays cover every year through 2030 by default (eight a year) and are overridable', () => {
  const config = loadConfig(env());
  for (const year of [2026, 2027, 2028, 2029, 2030]) expect(config.bankHolidays.filter((d) => d.startsWith(`${year}-`))).toHaveLength(8);
  expect(config.bankHolidays).toEqual(expect.arrayContaining(['2028-01-03', '2029-03-30', '2030-08-26', '2030-12-26']));
  // Every default falls on a weekday: a weekend holiday moves to its substitute Monday.
  for (const d of ENGLAND_BANK_HOLIDAYS) expect([0, 6]).not.toContain(new Date(`${d}T12:00:00Z`).getUTCDay());
  expect(loadConfig(env({ BANK_HOLIDAYS: '2031-01-01, 2031-04-11' })).bankHolidays).toEqual(['2031-01-01', '2031-04-11']);
  expect(() => loadConfig(env({ BANK_HOLIDAYS: '2031-02-30' }))).toThrow(/BANK_HOLIDAYS/);
});

it('monitoring unit prices default per register, are overridden per register, and a malformed pair is refused', () => {
  expect(loadConfig(env()).monitoringUnitPrices).toEqual({ nmc: 50, hcpc: 50, gmc: 75 });
  expect(loadConfig(env({ MONITORING_UNIT_PRICES: 'gmc=90, nmc=45' })).monitoringUnitPrices).toEqual({ nmc: 45, hcpc: 50, gmc: 90 });
  for (const bad of ['gmc', 'xyz=10', 'gmc=-5', 'gmc=1.5']) expect(() => loadConfig(env({ MONITORING_UNIT_PRICES: bad }))).toThrow(/MONITORING_UNIT_PRICES/);
});

it('evidence retention defaults to 6 years and must be a positive whole number', () => {
  expect(loadConfig(env()).evidenceRetentionYears).toBe(6);
  expect(loadConfig(env({ EVIDENCE_RETENTION_YEARS: '10' })).evidenceRetentionYears).toBe(10);
  expect(() => loadConfig(env({ EVIDENCE_RETENTION_YEARS: '0' }))).toThrow(/EVIDENCE_RETENTION_YEARS/);
});
