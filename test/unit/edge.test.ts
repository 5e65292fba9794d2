import * as v from 'valibot';
import { loadConfig, MissingConfigError } from '../../functions/core/platform/config.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { checkJava, MissingJavaError } from '../../lib/local/emulators.js';
import * as clinicalInterview from '../../functions/api/routes/clinical-interview.js';
import { fieldErrors, httpHandler, type OptionsArg } from '../../functions/middleware/http-handler.js';
import { idempotency } from '../../functions/middleware/idempotency.js';
import { toProblemResponse } from '../../functions/middleware/problems.js';

describe('problem responses', () => {
  it('turn an unexpected error into a bare 500 that leaks nothing', () => {
    const { response, unexpected } = toProblemResponse(new Error('connect ECONNREFUSED 10.0.0.7:8000 table secret-table'));
    expect(unexpected).toBe(true);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|secret-table/);
    expect(JSON.parse(response.body!)).toMatchObject({ type: '/problems/internal', status: 500 });
  });

  it('map a domain error by its code', () => {
    const { response } = toProblemResponse(new DomainError('not-found', 'No booking 7'));
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body!)).toEqual({ type: '/problems/not-found', title: 'Not found', status: 404, detail: 'No booking 7' });
  });
});

describe('validation errors', () => {
  it('point at the failing field, through arrays', () => {
    const schema = v.object({ referees: v.array(v.object({ referee_email: v.pipe(v.string(), v.email('Not an e-mail address')) })) });
    const result = v.safeParse(schema, { referees: [{ referee_email: 'a@b.co' }, { referee_email: 'nope' }] });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.issues!)).toEqual([{ pointer: '/referees/1/referee_email', detail: 'Not an e-mail address' }]);
  });
});

describe('idempotency keys', () => {
  const noop = async () => ({ status: 204 });
  it('are taken by a handler exactly when its operation is marked idempotent: a handler built otherwise refuses to load', () => {
    expect(clinicalInterview.createBooking.idempotent).toBe(true);
    expect(() => httpHandler(clinicalInterview.createBooking, noop, ...([{}] as unknown as OptionsArg<typeof clinicalInterview.createBooking>))).toThrow(
      /createBooking: the idempotency option goes with, and only with/,
    );
    expect(() =>
      httpHandler(clinicalInterview.listBookings, noop, ...([{ idempotency }] as unknown as OptionsArg<typeof clinicalInterview.listBookings>)),
    ).toThrow(/listBookings/);
  });
});

describe('configuration', () => {
  it('fails fast, naming the missing variable', () => {
    expect(() => loadConfig({})).toThrow(MissingConfigError);
    expect(() => loadConfig({})).toThrow('Missing required environment variable TABLE_NAME');
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => loadConfig({ TABLE_NAME: 't', RATE_LIMIT_REQUESTS: '-3' })).toThrow(/RATE_LIMIT_REQUESTS/);
  });
});

describe('the Java check', () => {
  it('says in one line what to install when Java is missing', () => {
    expect(() => checkJava('/nonexistent/java')).toThrow(MissingJavaError);
    expect(() => checkJava('/nonexistent/java')).toThrow(/Java 17 or newer.*apt-get install -y openjdk-17-jre-headless/);
  });
});
