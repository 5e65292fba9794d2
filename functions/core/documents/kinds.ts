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
  /** What an object must be: its type, the leading bytes that show it, and its size limit. */
  contentType: 'application/pdf';
  magic: string;
  /** Lambda responses are limited to 6 MB, base64 included: a document served through the API stays under it. */
  maxBytes: number;
}

/** Next: certificates, request PDFs, request uploads, evidence. */
export type DocumentKindId = 'interview-reports';

export const DOCUMENT_KINDS: Readonly<Record<DocumentKindId, DocumentKind>> = {
  'interview-reports': { prefix: 'interview-reports/', writtenBy: 'operator', contentType: 'application/pdf', magic: '%PDF-', maxBytes: 4 * 1024 * 1024 },
};

/** The environment variable that names the documents bucket. */
export const DOCUMENTS_BUCKET_ENV = 'DOCUMENTS_BUCKET';

/** The key of a document of a kind: its prefix, then the parts. */
export const documentKey = (kind: DocumentKindId, ...parts: (string | number)[]): string => DOCUMENT_KINDS[kind].prefix + parts.join('/');

/** Is this key one of the kind's? A stored key is checked before it is read. */
export const isKeyOf = (kind: DocumentKindId, key: string): boolean => key.startsWith(DOCUMENT_KINDS[kind].prefix) && !key.split('/').includes('..');
