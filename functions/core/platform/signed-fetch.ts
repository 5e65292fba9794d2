import type { SignatureV4 } from '@smithy/signature-v4';

/**
 * One AWS call as a plain HTTPS request signed by the SDK's own SigV4 signer:
 * for functions that need a single call of a service whose client would
 * outweigh the rest of their bundle (S3 GET, SES SendEmail).
 */
export async function signedFetch(
  signer: SignatureV4,
  url: URL,
  init: { method: 'GET' | 'POST' | 'PUT'; headers?: Record<string, string>; body?: string | Uint8Array },
): Promise<Response> {
  const signed = await signer.sign({
    method: init.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, ...init.headers },
    body: init.body,
  });
  // fetch sets Host itself.
  const { host: _host, ...headers } = signed.headers;
  return fetch(url, { method: init.method, headers, body: init.body });
}
