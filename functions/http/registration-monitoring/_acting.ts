import type { Operation } from '../../api/routes/operation.js';
import type { Permission } from '../../core/access/roles.js';
import { actingHandler, type ActingInput } from '../../middleware/acting-user.js';
import type { HttpResult, OptionsArg } from '../../middleware/http-handler.js';

/** Every handler of the family: `Acting-User` needs the operation's permission (its `actingUser` in the route table). */

type MonitoringOperation = Operation & { actingUser: Permission };
export type MonitoringInput<O extends Operation> = ActingInput<O>;

export const monitoringHandler = <const O extends MonitoringOperation>(op: O, operation: (input: MonitoringInput<O>) => Promise<HttpResult>, ...options: OptionsArg<O>) =>
  actingHandler(op, op.actingUser, operation, ...options);
