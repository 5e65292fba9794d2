import * as v from 'valibot';
import { HOSTILE_TEXT_MESSAGE, isSafeFreeText, isSafeName, normaliseLineBreaks } from '../../core/platform/safe-text.js';
import { isCalendarDate } from '../../core/platform/time.js';

/** Field rules shared by every family's schemas. */

/**
 * Builds a module-level schema (or fields) when its module loads, written
 * `/* @__PURE__ *\/ built(() => …)` so that a bundle whose function does not
 * use it leaves it out. Plain `v.object(…)` at the top of a module is kept by
 * every bundle that imports the module: esbuild does not carry valibot's
 * side-effect-free marks across modules (evanw/esbuild#4369). A test in
 * test/infra holds every schema module to this.
 */
export const built = <T>(make: () => T): T => make();

/** One of a fixed list, saying which when it is not. */
export const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `One of ${values.join(', ')}`);

/** Missing and wrong-typed fields both say what is wanted. */
export const text = () => v.string('Required, as a string');

/** A name (of a person, organisation, role or endpoint): one line, no control or invisible formatting characters. */
export const name = (max = 100) =>
  v.pipe(text(), v.trim(), v.minLength(1, 'Required'), v.maxLength(max, `At most ${max} characters`), v.check(isSafeName, HOSTILE_TEXT_MESSAGE));

/** Free text such as notes: may span lines and hold tabs, but no other control or invisible formatting character. */
export const notes = (max = 2000) =>
  v.pipe(
    v.string('Text'),
    v.transform(normaliseLineBreaks),
    v.trim(),
    v.maxLength(max, `At most ${max} characters`),
    v.check(isSafeFreeText, HOSTILE_TEXT_MESSAGE),
  );

export const email = /* @__PURE__ */ built(() =>
  v.pipe(text(), v.trim(), v.maxLength(254, 'At most 254 characters'), v.email('Not a valid e-mail address'), v.toLowerCase()),
);

/**
 * E.164 after removing spaces, dashes and brackets: +447700900123. A UK
 * number as people write it at home (07700 900123, 0161 496 0000) is taken
 * as the same number with +44.
 */
export const phone = /* @__PURE__ */ built(() =>
  v.pipe(
    text(),
    v.transform((s) => s.replace(/[\s\-()]/g, '')),
    v.transform((s) => (/^0[1-9]\d{8,9}$/.test(s) ? `+44${s.slice(1)}` : s)),
    v.regex(/^\+[1-9]\d{6,14}$/, 'Use the international format, for example +447700900123 (or a UK number such as 07700 900123)'),
  ),
);

/** The NMC PIN: two digits, a letter, four digits, a letter. */
export const nmcNumber = /* @__PURE__ */ built(() =>
  v.pipe(
    text(),
    v.trim(),
    v.toUpperCase(),
    // Either case and spaces around, as accepted (trimmed and upper-cased first): the documents show this pattern.
    v.regex(/^\s*\d{2}[A-Za-z]\d{4}[A-Za-z]\s*$/, 'Not an NMC PIN (for example 12A3456B)'),
  ),
);

export const calendarDate = /* @__PURE__ */ built(() =>
  v.pipe(text(), v.check(isCalendarDate, 'Use a real date as YYYY-MM-DD'), v.metadata({ format: 'date' })),
);

/** An instant: ISO 8601 date and time with seconds optional, a fraction optional, and its UTC offset (`Z` or `±hh:mm`). */
export const instant = /* @__PURE__ */ built(() =>
  v.pipe(
    text(),
    v.check(
      (s) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)) && isCalendarDate(s.slice(0, 10)),
      'Use an ISO 8601 date and time with its offset, for example 2026-11-23T09:00:00Z',
    ),
    v.metadata({ format: 'date-time' }),
  ),
);

export const timeOfDay = /* @__PURE__ */ built(() => v.pipe(text(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a 24-hour time as HH:MM')));

export const positiveId = /* @__PURE__ */ built(() =>
  v.pipe(v.number('Required, as a whole number'), v.integer('Must be a whole number'), v.minValue(1, 'Must be 1 or more')),
);

/**
 * A whole number that arrives as text (query strings, path parameters). The
 * schema after the transform states the number it stands for, which is what
 * the OpenAPI documents show (`type: integer`), so typed clients pass numbers.
 */
export const integerFromText = (pattern: RegExp, message: string, min: number, max: number, minMessage?: string, maxMessage?: string) =>
  v.pipe(
    text(),
    v.regex(pattern, message),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min, minMessage ?? message),
    v.maxValue(max, maxMessage ?? message),
  );

/** A positive integer id that arrives as text. */
export const idFromString = /* @__PURE__ */ built(() => integerFromText(/^[1-9]\d{0,12}$/, 'Must be a whole number, 1 or more', 1, 9_999_999_999_999));

export const listQuery = /* @__PURE__ */ built(() => ({
  limit: v.optional(
    v.pipe(integerFromText(/^\d+$/, 'Must be a whole number', 1, 100, 'At least 1', 'At most 100'), v.description('How many items a page holds')),
    '25',
  ),
  // Sealed cursors are under 400 characters (an index list's carries two keys); anything much longer is not one.
  cursor: v.optional(
    v.pipe(v.string(), v.maxLength(512, 'At most 512 characters'), v.description("The previous page's `next_cursor`, to read the page after it")),
  ),
}));

export const PageQuery = /* @__PURE__ */ built(() => v.object(listQuery));

export { issuePointer } from './messages.js';

/** The invite page's query: why a booking sent the candidate back to it (`seat-lost`: the seat they were booking was no longer held); the page ignores anything else. */
export const InvitePageQuery = /* @__PURE__ */ built(() =>
  v.object({
    notice: v.optional(
      v.pipe(
        v.picklist(['seat-lost'], 'One of: seat-lost'),
        v.description("Set by the page's own booking form when the seat the candidate was booking was no longer held: the page says so above its dates"),
      ),
    ),
  }),
);

/** The payment page's query: where Stripe's Checkout sends the candidate back (`?session_id=`); the page never trusts it to confirm anything. */
export const PaymentPageQuery = /* @__PURE__ */ built(() =>
  v.object({
    session_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^cs_[A-Za-z0-9_]{1,255}$/, 'A Checkout Session id'),
        v.description('Set by Stripe on the way back from its Checkout page: the page then waits for the payment to be confirmed'),
      ),
    ),
  }),
);
