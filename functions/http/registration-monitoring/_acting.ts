import type { Operation } from '../../api/routes/operation.js';
import type { Permission } from '../../core/access/roles.js';
import { httpHandler, type HttpInput, type HttpResult, type OptionsArg } from '../../middleware/http-handler.js';

/**
 * Every handler of the family: an operation that names its permission (its
 * `actingUser` in the route table), which the HTTP handler checks against
 * `Acting-User` before the operation runs, handing it the user as `acting`.
 */

type MonitoringOperation = Operation & { actingUser: Permission };
export type MonitoringInput<O extends Operation> = HttpInput<O>;

export const monitoringHandler = <const O extends MonitoringOperation>(
  op: O,
  operation: (input: MonitoringInput<O>) => Promise<HttpResult>,
  ...options: OptionsArg<O>
) => httpHandler(op, operation, ...options);
