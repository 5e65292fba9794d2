import { createCourse, createLocation, loadCatalogue, updateCourse, updateLocation } from '../../../functions/core/practical-training/catalogue.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { testDeps } from '../../support/env.js';

let deps: Deps;
beforeAll(async () => {
  deps = await testDeps();
});

const code = (p: Promise<unknown>) => p.then(() => 'ok', (e) => e.code ?? String(e));

describe('operators change the catalogue', () => {
  it('a course: name, price, refund window and validity, for what is sold from now on', async () => {
    const course = await createCourse(deps, { name: 'BLS adult', code: 'BLS-U1', duration_minutes: 180, certificate_validity_months: 12, price_minor: 6500 });
    const updated = await updateCourse(deps, course.id, { price_minor: 7000, free_cancellation_hours: 48 });
    expect(updated).toMatchObject({ id: course.id, name: 'BLS adult', price: { amount: 7000, currency: 'GBP' }, free_cancellation_hours: 48, certificate_validity_months: 12 });
    expect((await loadCatalogue(deps)).courses.find((c) => c.id === course.id)?.price.amount).toBe(7000);
    expect(await code(updateCourse(deps, course.id, { price_minor: -1 }))).toBe('invalid-catalog');
    expect(await code(updateCourse(deps, course.id, {}))).toBe('invalid-catalog');
    expect(await code(updateCourse(deps, 999_999, { name: 'x' }))).toBe('not-found');
  });

  it('a location: how it is described', async () => {
    const location = await createLocation(deps, { name: 'Leeds Training Centre', address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' } });
    expect(await updateLocation(deps, location.id, { directions: 'Second floor, lift by reception' })).toMatchObject({ name: 'Leeds Training Centre', directions: 'Second floor, lift by reception' });
    expect(await code(updateLocation(deps, 999_999, { name: 'x' }))).toBe('not-found');
  });
});
