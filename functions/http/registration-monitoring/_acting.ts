import { MONITORING_PERMISSIONS, type registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import type { Operation } from '../../api/routes/operation.js';
import { checkActingUser, type Acting } from '../../core/registration-monitoring/team.js';
import { httpHandler, type HandlerOptions, type HttpInput, type HttpResult } from '../../middleware/http-handler.js';

/**
 * Every handler of the family: the `Acting-User` header checked against the
 * operation's permission after the path's own 404 check and before the body
 * (design section 6, rule 2), and handed to the operation as `acting`.
 */

type MonitoringOperation = Operation & { operationId: keyof typeof registrationMonitoring };
export type MonitoringInput<O extends Operation> = HttpInput<O> & { acting: Acting | null };

export function monitoringHandler<const O extends MonitoringOperation>(op: O, operation: (input: MonitoringInput<O>) => Promise<HttpResult>, options: HandlerOptions<O> = {}) {
  // The checked user, by the request's headers object (the same in the resource check and the operation's input).
  const acting = new WeakMap<object, Acting | null>();
  return httpHandler(
    op,
    async (input) => operation({ ...input, acting: acting.get(input.headers) ?? null }),
    {
      ...options,
      resource: async (input) => {
        if (options.resource) await options.resource(input);
        const caller = input.caller as { clientId: string };
        acting.set(input.headers, await checkActingUser(input.deps, caller.clientId, input.headers['acting-user'], MONITORING_PERMISSIONS[op.operationId]));
      },
    },
  );
}
