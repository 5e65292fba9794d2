/**
 * JSON text that any queue takes. SQS refuses some characters that a person
 * may type (and the local SQS server refuses emoji, which SQS takes), so
 * everything past ASCII travels as a `\uXXXX` escape: the same JSON value,
 * readable by any JSON parser, in characters every queue accepts.
 */
export const toQueueJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
