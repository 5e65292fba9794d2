import { MONITORING_PERMISSIONS, type registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import type { Operation } from '../../api/routes/operation.js';
import { actingHandler, type ActingInput } from '../../middleware/acting-user.js';
import type { HandlerOptions, HttpResult } from '../../middleware/http-handler.js';

/** Every handler of the family: `Acting-User` needs the operation's permission (MONITORING_PERMISSIONS). */

type MonitoringOperation = Operation & { operationId: keyof typeof registrationMonitoring };
export type MonitoringInput<O extends Operation> = ActingInput<O>;

export const monitoringHandler = <const O extends MonitoringOperation>(op: O, operation: (input: MonitoringInput<O>) => Promise<HttpResult>, options: HandlerOptions<O> = {}) =>
  actingHandler(op, MONITORING_PERMISSIONS[op.operationId], operation, options);
