import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import { createInvite } from '../../functions/core/practical-training/invites.js';
import { createCourse as createVlsCourse, createSession } from '../../functions/core/virtual-life-support/catalogue.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { launchBrowser } from '../support/browser.js';
import { call, DEMO_CREDENTIALS, mailTo, startTestStack } from '../support/local-stack.js';

/**
 * Every candidate-facing page in a real headless browser, at a phone's width
 * (390 px) and a laptop's (1280 px): it shows the agency's name, fits the
 * width, and works by clicking without JavaScript of ours. Each is
 * photographed; `npm run screenshots` writes them to docs/screenshots.
 */

const WIDTHS = [390, 1280] as const;
const shots = process.env.UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'screenshots-'));

let stack: LocalStack;
let browser: Browser;
const families = () => stack.info.families;
const tokenOf = async (family: string, who: keyof typeof DEMO_CREDENTIALS) =>
  (await call(`${families()[family]}/auth/token`, { body: DEMO_CREDENTIALS[who] })).body.access_token as string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/**
 * Opens `url` at each width, checks what every page must show, photographs it
 * as `name-<width>.png`, and runs `then` on the widest. A used, expired or
 * withdrawn link answers `status` (410) with the same page furniture.
 */
async function eachWidth(name: string, url: string, agency: string, then?: (page: Page) => Promise<void>, status = 200) {
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false, locale: 'en-GB' });
    try {
      const response = await page.goto(url);
      expect([name, response?.status()]).toEqual([name, status]);
      await checkPage(page, name, agency);
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect([name, width, await page.evaluate('document.documentElement.scrollWidth')]).toEqual([name, width, width]);
      await shoot(page, `${name}-${width}`);
      if (then && width === WIDTHS.at(-1)) await then(page);
    } finally {
      await page.close();
    }
  }
}

const shoot = (page: Page, file: string) => page.screenshot({ path: join(shots, `${file}.png`), fullPage: true });

/** What every page owes its reader: the agency's name on top, each element id once, one h1 and headings that go down one level at a time. */
async function checkPage(page: Page, name: string, agency: string) {
  expect([name, await page.locator('header .agency').textContent()]).toEqual([name, agency]);
  const ids = await page.evaluate<string[]>('[...document.querySelectorAll("[id]")].map((e) => e.id)');
  expect([name, ids.filter((id, n) => ids.indexOf(id) !== n)]).toEqual([name, []]);
  const levels = await page.evaluate<number[]>('[...document.querySelectorAll("h1,h2,h3,h4")].map((h) => Number(h.tagName[1]))');
  expect([name, levels[0], levels.filter((l) => l === 1).length, levels.some((l, n) => n > 0 && l > levels[n - 1]! + 1)]).toEqual([name, 1, 1, false]);
}

/** A page reached by clicking: checked and photographed like the others, at the width it was opened at. */
async function afterClick(page: Page, name: string, agency: string, status?: number) {
  if (status !== undefined) expect([name, await page.evaluate('performance.getEntriesByType("navigation")[0]?.responseStatus')]).toEqual([name, status]);
  await checkPage(page, name, agency);
  await shoot(page, `${name}-1280`);
}

describe('candidate pages in a browser', () => {
  it('clinical interview: choose a day, then a time, enter details; errors beside their fields; then the payment page', async () => {
    const base = families()['clinical-interview']!;
    const { booking_url } = (await call(`${base}/client/booking-url`, { token: await tokenOf('clinical-interview', 'riverside') })).body;
    let payment = '';
    await eachWidth('clinical-booking', `${booking_url}?interview_type_id=1`, 'Riverside Care Staffing', async (page) => {
      await page.locator('.days a').nth(1).click();
      expect(await page.locator('.days a[aria-current=date]').textContent()).toBe(await page.locator('.days a').nth(1).textContent());
      await page.locator('input[name=slot]').first().check();
      for (const [field, value] of Object.entries({
        first_name: 'Bo',
        last_name: 'Peep',
        email: 'bo.pages@example.org',
        phone: '0770 090',
        job_role: 'RMN',
        nmc_number: '99X1234Y',
      })) {
        await page.fill(`#${field}`, value);
      }
      await page.click('button[type=submit]');
      // The server's answer: the summary at the top, the message beside the field, the answers kept.
      expect(await page.locator('p.error[role=alert]').textContent()).toBe('Please correct the highlighted answers.');
      expect(await page.locator('#phone-error').textContent()).toMatch(/international format|\+44/i);
      expect(await page.inputValue('#first_name')).toBe('Bo');
      await page.screenshot({ path: join(shots, 'clinical-booking-errors-1280.png'), fullPage: true });
      await page.locator('input[name=slot]').first().check();
      // A UK mobile as people write it is taken, and kept in the international form.
      await page.fill('#phone', '07700 900990');
      await page.click('button[type=submit]');
      expect(page.url()).toContain('/pay/');
      payment = page.url();
    });
    await eachWidth('payment', payment, 'Riverside Care Staffing', async (page) => {
      expect(await page.locator('dd').nth(1).textContent()).toMatch(/^(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}$/);
      await page.click('button[type=submit]');
      expect(await page.locator('h1').textContent()).toBe('Payment received');
      await afterClick(page, 'payment-received', 'Riverside Care Staffing');
    });
    const booked = (await call(`${base}/bookings?limit=100`, { token: await tokenOf('clinical-interview', 'riverside') })).body.data.find(
      (b: { candidate: { email: string } }) => b.candidate.email === 'bo.pages@example.org',
    );
    expect(booked.candidate.phone).toBe('+447700900990');
  });

  it('reference requests: the candidate names referees; the referee fills in the form', async () => {
    const base = families()['portal-v2']!;
    const token = await tokenOf('portal-v2', 'northwind');
    const candidate = (await call(`${base}/candidates`, { token, body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.pages@example.org' } })).body
      .data;
    const request = (
      await call(`${base}/reference-requests`, {
        token,
        body: { candidate_id: candidate.id, template_id: 1, collection_mode: 'candidate_provides', references_required: 1 },
      })
    ).body.data;
    await eachWidth('candidate-referees', request.submission_url, 'Northwind Nursing Agency', async (page) => {
      await page.fill('#r0_referee_name', 'Dr Ann Lee');
      await page.click('button[type=submit]');
      expect(await page.locator('#r0_referee_email-error').textContent()).toBe('Please fill this in');
      await page.screenshot({ path: join(shots, 'candidate-referees-errors-1280.png'), fullPage: true });
    });
    const referee = {
      referee_name: 'Dr Ann Lee',
      referee_email: 'ann.lee.pages@nhs.example',
      referee_organisation: 'St Thomas Hospital',
      referee_position: 'Ward Manager',
    };
    await call(`${base}/reference-requests`, {
      token,
      body: { candidate_id: candidate.id, template_id: 1, collection_mode: 'client_adds', references_required: 1, referees: [referee] },
    });
    const form = /(http:\/\/\S+\/reference-form\/\S+)/.exec((await mailTo(stack, referee.referee_email))[0]!)![1]!;
    await eachWidth('referee-form', form, 'Northwind Nursing Agency');
  });

  it('practical training: the invite page (a seat held, booked, then used; and an expired one) and the booking link, its price shown', async () => {
    const base = families()['practical-training']!;
    const token = await tokenOf('practical-training', 'riverside');
    await eachWidth('training-invite', `${base}/invite/demo-invite-riverside-local-only`, 'Riverside Care Staffing');
    const candidate = { first_name: 'Agnes', last_name: 'Pages', email: `agnes.pages.${Date.now()}@example.org` };
    const invite = (await call(`${base}/booking-invites`, { token, body: { candidate, course_id: 1, pay_option: 'credits' } })).body.invite_url as string;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false, locale: 'en-GB' });
    try {
      await page.goto(invite);
      await page.locator('button:has-text("Choose this date")').first().click();
      expect(await page.locator('main').textContent()).toMatch(
        /A seat is held for you on (Mon|Tues|Wednes|Thurs|Fri)day \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}/,
      );
      await afterClick(page, 'training-invite-held', 'Riverside Care Staffing');
      for (const [field, value] of Object.entries({ phone: '07700 900124', job_role: 'Healthcare assistant' })) await page.fill(`#${field}`, value);
      await page.click('button:has-text("Book this place")');
      expect(await page.locator('h1').textContent()).toBe('You are booked');
      await afterClick(page, 'training-invite-booked', 'Riverside Care Staffing');
    } finally {
      await page.close();
    }
    const booked = (await call(`${base}/bookings?limit=100`, { token })).body.data.find(
      (b: { candidate: { email: string } }) => b.candidate.email === candidate.email,
    );
    expect(booked.candidate.phone).toBe('+447700900124');
    // The same link once used, and an invite that lapsed unused: 410, still under the agency's name.
    await eachWidth('training-invite-used', invite, 'Riverside Care Staffing', undefined, 410);
    const deps = depsFromEnv();
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const lapsed = await createInvite(
      { ...deps, clock: () => monthAgo },
      'demo-riverside',
      { candidate: { ...candidate, email: `lapsed.${candidate.email}` }, course_id: 1, pay_option: 'credits', expires_in_days: 7 },
      { invite: (t) => `${base}/invite/${t}` },
    );
    await eachWidth('training-invite-expired', lapsed.invite_url, 'Riverside Care Staffing', undefined, 410);

    const { booking_url } = (await call(`${base}/client/booking-url`, { token })).body;
    await eachWidth('training-booking-link', `${booking_url}?course_id=1`, 'Riverside Care Staffing', async (page) => {
      // The price before the candidate commits: beside the course, and again by the button.
      expect(await page.locator('.price').textContent()).toContain('£65.00');
      expect(await page.locator('.total').textContent()).toBe('To pay: £65.00, on the next page.');
      await page.locator('input[name=training_event_id]').first().check();
      for (const [field, value] of Object.entries({
        first_name: 'Tom',
        last_name: 'Okoro',
        email: 'tom.pages@example.org',
        phone: '07700 900123',
        job_role: 'Healthcare assistant',
      })) {
        await page.fill(`#${field}`, value);
      }
      await page.click('button:has-text("Book and go to payment")');
      expect(page.url()).toContain('/pay/');
      expect(await page.locator('header .agency').textContent()).toBe('Riverside Care Staffing');
    });
    const tom = (await call(`${base}/bookings?limit=100`, { token })).body.data.find(
      (b: { candidate: { email: string } }) => b.candidate.email === 'tom.pages@example.org',
    );
    expect(tom.candidate.phone).toBe('+447700900123');
  });

  it("request pages: the candidate's training request (each subject named, dates picked), a third party's form, and a withdrawn request", async () => {
    const base = families()['portal-v2']!;
    const token = await tokenOf('portal-v2', 'northwind');
    const who = (await call(`${base}/candidates`, { token, body: { first_name: 'Sam', last_name: 'Pages', email: `sam.pages.${Date.now()}@example.org` } }))
      .body.data;
    const request = (await call(`${base}/training-requests`, { token, body: { candidate_id: who.id, subjects: ['fire_safety', 'moving_handling'] } })).body
      .data;
    await eachWidth('training-request', request.submission_url, 'Northwind Nursing Agency', async (page) => {
      expect(await page.locator('main h2').allTextContents()).toEqual(['Fire safety', 'Moving and handling']);
      expect(await page.locator('main p.status').allTextContents()).toEqual(['Status: Requested', 'Status: Requested']);
      expect(await page.locator('input[type=date][name=completed_on]').count()).toBe(2);
      expect(await page.locator('main').textContent()).toMatch(/This page works until (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4}\./);
      // The first subject's details, a date picked as the date input posts it; then the file is asked for.
      const first = page.locator('main form').first();
      await first.locator('input[name=completed_on]').fill(new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10));
      await first.locator('input[name=provider]').fill('St Thomas Training');
      await first.locator('button:has-text("Save and choose the file")').click();
      expect(await page.locator('input[type=file]').count()).toBe(1);
      await afterClick(page, 'training-request-upload', 'Northwind Nursing Agency');
    });
    const issuer = {
      course_title: 'Manual handling',
      completed_on: new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10),
      issuer_organisation: 'Pages Training',
      issuer_contact_name: 'Pat Clerk',
      issuer_contact_email: `pat.pages.${Date.now()}@training.example`,
    };
    expect((await call(`${base}/training-verification-requests`, { token, body: { candidate_id: who.id, certificates: [issuer] } })).status).toBe(201);
    const form = /(http:\/\/\S+\/request-form\/[A-Za-z0-9_-]+)/.exec((await mailTo(stack, issuer.issuer_contact_email))[0]!)![1]!;
    await eachWidth('issuer-form', form, 'Northwind Nursing Agency');
    expect((await call(`${base}/training-requests/${request.id}/cancel`, { token, body: {} })).status).toBe(200);
    await eachWidth('training-request-withdrawn', request.submission_url, 'Northwind Nursing Agency', undefined, 410);
  });
  it("life support request: the virtual life-support family's invite page, with the delivery address", async () => {
    const deps = depsFromEnv();
    const kit = await createVlsCourse(deps, {
      name: 'Virtual ILS pages',
      code: `VILS-P-${Date.now()}`,
      duration_minutes: 180,
      equipment_required: true,
      price_minor: 7500,
      seats_per_session: 6,
    });
    const date = addDays(wallClock(new Date(), deps.config.serviceTimeZone).date, 21);
    await createSession(deps, { course_id: kit.id, date, start_time: '10:00' });
    const portal = families()['portal-v2']!;
    const token = await tokenOf('portal-v2', 'northwind');
    const email = `ls.pages.${Date.now()}@example.org`;
    const candidate = (await call(`${portal}/candidates`, { token, body: { first_name: 'Grace', last_name: 'Adeyemi', email } })).body.data;
    expect(
      (await call(`${portal}/life-support-requests`, { token, body: { candidate_id: candidate.id, course_id: kit.id, pay_option: 'candidate_pays' } })).status,
    ).toBe(201);
    const [mail] = await mailTo(stack, email);
    const link = /(http:\/\/\S+\/virtual-life-support\/invite\/[A-Za-z0-9_-]+)/.exec(mail!)![1]!;
    await eachWidth('life-support-invite', link, 'Northwind Nursing Agency', async (page) => {
      // Choosing a time holds a seat while the candidate fills in the form.
      await page.locator('button:has-text("Choose this time")').first().click();
      expect(await page.locator('main').textContent()).toMatch(
        /A seat is held for you on (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4} at 10:00, live by video/,
      );
      await afterClick(page, 'life-support-held', 'Northwind Nursing Agency');
      for (const [field, value] of Object.entries({
        phone: '+447700900321',
        job_role: 'Staff nurse',
        line1: '4 Mill Road',
        town: 'Leeds',
        postcode: 'LS6 2AB',
      }))
        await page.fill(`#${field}`, value);
      await page.click('button:has-text("Book and go to payment")');
      expect(page.url()).toContain('/pay/');
    });
  });
  it("virtual life support's booking link: a course, a time, the details and the address; then the payment page", async () => {
    const base = families()['virtual-life-support']!;
    const { booking_url } = (await call(`${base}/client/booking-url`, { token: await tokenOf('virtual-life-support', 'riverside') })).body;
    await eachWidth('life-support-booking', `${booking_url}?course_id=1`, 'Riverside Care Staffing', async (page) => {
      await page.locator('input[name=slot]').last().check();
      for (const [field, value] of Object.entries({
        first_name: 'Grace',
        last_name: 'Adeyemi',
        email: 'grace.vls.link@example.org',
        phone: '+447700900321',
        job_role: 'Staff nurse',
        line1: '4 Mill Road',
        town: 'Leeds',
        postcode: 'LS6 2AB',
      }))
        await page.fill(`#${field}`, value);
      await page.click('button:has-text("Book and go to payment")');
      expect(page.url()).toContain('/pay/');
      expect(await page.locator('header .agency').textContent()).toBe('Riverside Care Staffing');
    });
  });
});
