import { isDomainError } from '../../core/platform/errors.js';
import { validationProblem } from '../../middleware/problems.js';

/** A refused URL is a field error of `url`. */
export async function vettingUrl<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isDomainError(err) && err.code === 'webhook-url-refused') throw validationProblem([{ pointer: '/url', detail: err.message }]);
    throw err;
  }
}
