import type { Operation } from '../api/routes/operation.js';
import type { Permission } from '../core/access/roles.js';
import { checkActingUser, type Acting } from '../core/access/team.js';
import { httpHandler, type HandlerOptions, type HttpInput, type HttpResult, type OptionsArg } from './http-handler.js';

/**
 * A handler whose operation takes `Acting-User` (decision 10): the header
 * checked against the permission the request needs after the path's own 404
 * check and before the body (design registration-monitoring section 6, rule
 * 2), and handed to the operation as `acting`.
 */

export type ActingInput<O extends Operation> = HttpInput<O> & { acting: Acting | null };

export function actingHandler<const O extends Operation>(
  op: O,
  permission: Permission,
  operation: (input: ActingInput<O>) => Promise<HttpResult>,
  ...[given]: OptionsArg<O>
) {
  const options: HandlerOptions<O> = given ?? {};
  // The checked user, by the request's headers object (the same in the resource check and the operation's input).
  const acting = new WeakMap<object, Acting | null>();
  return httpHandler(
    op,
    async (input) => operation({ ...input, acting: acting.get(input.headers) ?? null }),
    // The same options, the Acting-User check added to the resource check.
    ...([
      {
        ...options,
        resource: async (input: Parameters<NonNullable<HandlerOptions<O>['resource']>>[0]) => {
          if (options.resource) await options.resource(input);
          const caller = input.caller as unknown as { clientId: string };
          acting.set(input.headers, await checkActingUser(input.deps, caller.clientId, input.headers['acting-user'], permission));
        },
      },
    ] as unknown as OptionsArg<O>),
  );
}
