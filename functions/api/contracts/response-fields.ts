import * as v from 'valibot';

/** The field types every response shape is built from. */
export const str = v.string();
export const int = v.pipe(v.number(), v.integer());
export const nullable = <T extends v.GenericSchema>(s: T) => v.nullable(s);
export const timestamp = v.pipe(v.string(), v.isoTimestamp());
