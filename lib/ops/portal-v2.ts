import { listClients } from '../../functions/core/access/clients.js';
import { DomainError, isDomainError } from '../../functions/core/platform/errors.js';
import { getReferenceRequest, listReferenceRequests } from '../../functions/core/portal-v2/reference-requests.js';
import { expireDueRequestsOfEveryKind } from '../../functions/core/portal-v2/request-kinds.js';
import { REQUEST_STATUSES, type RequestStatus } from '../../functions/core/portal-v2/references.js';
import { createTemplate, listTemplates } from '../../functions/core/portal-v2/templates.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/** The portal's operator commands (`ops portal-v2 …`): reference form templates and reference requests. */

export const portalV2Commands = (k: OpsKit): Record<string, OpsCommand> => ({
  'templates create': {
    options: ['file'],
    args: '--file TEMPLATE.json',
    about: 'add a reference form template ({name, description, questions: [{id, kind: rating|text, label, required, weight}]})',
    run: async () => {
      const input = k.jsonFile('file') as Parameters<typeof createTemplate>[1];
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new UsageError(`--file ${k.maybe('file')} must hold one JSON object`);
      k.print(await createTemplate(k.deps(), { ...input, id: undefined }));
    },
  },
  'templates list': {
    options: [],
    args: '',
    about: 'list reference form templates',
    run: async () => k.print(await listTemplates(k.deps())),
  },
  'references list': {
    options: ['client-id', 'status', 'limit'],
    args: '--client-id ID [--status STATUS] [--limit N]',
    about: "a client's reference requests, newest first, with their references",
    run: async () => {
      const status = k.optional('status', (n) => k.oneOf<RequestStatus>(n, REQUEST_STATUSES));
      const page = await listReferenceRequests(k.deps(), k.text('client-id'), { status, limit: k.optional('limit', k.int) ?? 100 });
      k.print(page.data);
    },
  },
  'references show': {
    options: ['client-id', 'id'],
    args: '--id ID [--client-id ID]',
    about: "one reference request with its references (any client's, without --client-id)",
    run: async () => {
      const { deps } = k.target();
      const id = k.int('id');
      const owners = k.maybe('client-id') ? [k.text('client-id')] : (await listClients(deps)).map((c) => c.clientId);
      for (const clientId of owners) {
        const found = await getReferenceRequest(deps, clientId, id).catch((err: unknown) => {
          if (isDomainError(err) && err.code === 'not-found') return undefined;
          throw err;
        });
        if (found) return k.print({ client_id: clientId, ...found });
      }
      throw new DomainError('not-found', `No reference request ${id}`);
    },
  },
  'references expire': {
    options: [],
    args: '',
    about: 'expire reference requests whose time is up, now',
    run: async () => k.print({ expired: (await expireDueRequestsOfEveryKind(k.deps())).reference }),
  },
});

/** Before the `ops <family> <resource> <action>` grammar these had no family word (`templates list`). */
export const portalV2Ops: OpsArea = { family: 'portal-v2', options: {}, commands: portalV2Commands, formerly: (name) => name };
