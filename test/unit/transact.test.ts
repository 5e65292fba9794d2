import { allOf, setFrom } from '../../functions/core/platform/transact.js';
import { crossing } from '../../functions/core/commerce/thresholds.js';

describe('setFrom: the one partial-update expression', () => {
  it('sets, removes (also for undefined values) and adds, with placeholders of its own', () => {
    expect(setFrom({ set: { status: 'used', note: undefined, 'odd name': 1 }, remove: ['ttl'], add: { version: 1 } })).toEqual({
      expression: 'SET #f0 = :v0, #f2 = :v2 REMOVE #f1, #f3 ADD #f4 :v4',
      names: { '#f0': 'status', '#f1': 'note', '#f2': 'odd name', '#f3': 'ttl', '#f4': 'version' },
      values: { ':v0': 'used', ':v2': 1, ':v4': 1 },
    });
  });

  it('refuses an update that changes nothing', () => {
    expect(() => setFrom({ set: {} })).toThrow(/nothing to change/);
  });
});

describe('allOf', () => {
  it('joins conditions and their placeholders', () => {
    expect(allOf({ expression: 'a = :a', values: { ':a': 1 } }, { expression: '#b = :b', names: { '#b': 'b' }, values: { ':b': 2 } })).toEqual({
      expression: '(a = :a) AND (#b = :b)',
      names: { '#b': 'b' },
      values: { ':a': 1, ':b': 2 },
    });
  });

  it('refuses a placeholder bound to two values, which would silently change a condition', () => {
    expect(() => allOf({ expression: 'a = :x', values: { ':x': 1 } }, { expression: 'b = :x', values: { ':x': 2 } })).toThrow(/bound twice/);
  });
});

describe('balance thresholds: once per crossing', () => {
  const armed = { low: true, depleted: true };

  it('sends low when a debit takes the balance from above the threshold to at or below it, and disarms it', () => {
    expect(crossing({ before: 3, after: 2, lowAt: 2, armed })).toEqual({ alerts: ['low'], armed: { low: false, depleted: true } });
  });

  it('sends nothing for a debit that stays above, or starts at or below, the threshold', () => {
    expect(crossing({ before: 5, after: 3, lowAt: 2, armed }).alerts).toEqual([]);
    expect(crossing({ before: 2, after: 1, lowAt: 2, armed }).alerts).toEqual([]);
  });

  it('sends depleted at zero, and both when one debit crosses both', () => {
    expect(crossing({ before: 1, after: 0, lowAt: 2, armed: { low: false, depleted: true } })).toEqual({
      alerts: ['depleted'],
      armed: { low: false, depleted: false },
    });
    expect(crossing({ before: 9000, after: 0, lowAt: 5000, armed })).toEqual({ alerts: ['low', 'depleted'], armed: { low: false, depleted: false } });
  });

  it('sends nothing while disarmed', () => {
    expect(crossing({ before: 3, after: 0, lowAt: 2, armed: { low: false, depleted: false } }).alerts).toEqual([]);
  });

  it('re-arms when a top-up or refund takes the balance back above a threshold', () => {
    const off = { low: false, depleted: false };
    expect(crossing({ before: 0, after: 1, lowAt: 2, armed: off })).toEqual({ alerts: [], armed: { low: false, depleted: true } });
    expect(crossing({ before: 0, after: 3, lowAt: 2, armed: off })).toEqual({ alerts: [], armed: { low: true, depleted: true } });
  });
});
