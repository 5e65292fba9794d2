/**
 * Documents: one bucket, a key prefix per kind. This registry is SDK-free:
 * the route table names the kinds a function reads, and the CDK stack grants
 * access under just those prefixes (`bindDocuments`).
 */

export interface DocumentKind {
  /** Every object of the kind lies under this prefix. */
  prefix: string;
  /** Who writes the kind: only a kind a function writes gets PutObject in a function's role. */
  writtenBy: 'operator' | 'function';
  /** What an object may be: each type with the leading bytes that show it (a declared type is never trusted). */
  accepts: readonly { contentType: DocumentType; magic: string }[];
  /** Lambda responses are limited to 6 MB, base64 included: a document served through the API stays under it. Uploads go straight to the bucket. */
  maxBytes: number;
  /** Objects of the kind expire this many days after they were written (a bucket lifecycle rule, in the cloud and declared locally). */
  expiresAfterDays?: number;
}

export type DocumentType = 'application/pdf' | 'image/jpeg' | 'image/png';
export const PDF = { contentType: 'application/pdf', magic: '%PDF-' } as const;
const JPEG = { contentType: 'image/jpeg', magic: '\xFF\xD8\xFF' } as const;
const PNG = { contentType: 'image/png', magic: '\x89PNG\r\n\x1A\n' } as const;

/** Next: certificates, request PDFs, evidence. */
export type DocumentKindId = 'interview-reports' | 'request-files' | 'request-uploads';

export const DOCUMENT_KINDS: Readonly<Record<DocumentKindId, DocumentKind>> = {
  'interview-reports': { prefix: 'interview-reports/', writtenBy: 'operator', accepts: [PDF], maxBytes: 4 * 1024 * 1024 },
  // Evidence a request's actor uploads with a signed POST policy, served by a signed URL.
  'request-files': { prefix: 'portal-v2/request-file/', writtenBy: 'function', accepts: [PDF, JPEG, PNG], maxBytes: 10 * 1024 * 1024 },
  // Where the browser's POST puts a file: the attach step copies a good one to request-files and deletes it here; one never attached (the page left, a refusal) expires in a day.
  'request-uploads': { prefix: 'portal-v2/request-upload/', writtenBy: 'function', accepts: [PDF, JPEG, PNG], maxBytes: 10 * 1024 * 1024, expiresAfterDays: 1 },
};

/** The bucket's lifecycle rules: each kind that expires, by its prefix (the CDK stack and the local stack both read this). */
export const DOCUMENT_EXPIRIES: readonly { id: string; prefix: string; days: number }[] = Object.entries(DOCUMENT_KINDS).flatMap(([id, k]) =>
  k.expiresAfterDays === undefined ? [] : [{ id: `expire-${id}`, prefix: k.prefix, days: k.expiresAfterDays }],
);

/** The environment variable that names the documents bucket. */
export const DOCUMENTS_BUCKET_ENV = 'DOCUMENTS_BUCKET';

/** The key of a document of a kind: its prefix, then the parts. */
export const documentKey = (kind: DocumentKindId, ...parts: (string | number)[]): string => DOCUMENT_KINDS[kind].prefix + parts.join('/');

/** Is this key one of the kind's? A stored key is checked before it is read. */
export const isKeyOf = (kind: DocumentKindId, key: string): boolean => key.startsWith(DOCUMENT_KINDS[kind].prefix) && !key.split('/').includes('..');

/** The type a body is by its leading bytes, among those the kind accepts; undefined when none. */
export const sniffType = (kind: DocumentKindId, body: Buffer): DocumentType | undefined =>
  DOCUMENT_KINDS[kind].accepts.find((a) => body.subarray(0, a.magic.length).toString('latin1') === a.magic)?.contentType;
