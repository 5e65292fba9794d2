import { attachDocument, createS3Client } from '../../../functions/core/documents/attach.js';
import { readDocument } from '../../../functions/core/documents/read.js';
import { createObjectReader } from '../../../functions/core/documents/signed-get.js';
import { ensureBucket } from '../../../lib/local/provision.js';
import { uniqueName, useEmulatorEnv } from '../../support/env.js';

describe('documents: attach, then read through the signed GET', () => {
  let bucket: string;
  const s3 = () => createS3Client();
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('a report')]);

  beforeAll(async () => {
    useEmulatorEnv();
    process.env.AWS_ENDPOINT_URL_S3 = process.env.AWS_ENDPOINT_URL_SQS;
    bucket = uniqueName('documents');
    await ensureBucket(s3(), bucket);
  });

  it('stores a document under its kind and reads it back byte for byte', async () => {
    await attachDocument(s3(), 'interview-reports', 'interview-reports/c1/7.pdf', pdf, 'The report', bucket);
    expect((await readDocument(createObjectReader(), 'interview-reports', 'interview-reports/c1/7.pdf', bucket)).equals(pdf)).toBe(true);
  });

  it("refuses what is not the kind's type, or is too large, and stores nothing", async () => {
    await expect(attachDocument(s3(), 'interview-reports', 'interview-reports/c1/8.pdf', Buffer.from('<html>'), 'The report', bucket)).rejects.toMatchObject({
      code: 'invalid-state',
      message: 'The report must be a PDF file',
    });
    const huge = Buffer.concat([pdf, Buffer.alloc(4 * 1024 * 1024)]);
    await expect(attachDocument(s3(), 'interview-reports', 'interview-reports/c1/8.pdf', huge, 'The report', bucket)).rejects.toMatchObject({
      message: `The report must be at most ${4 * 1024 * 1024} bytes`,
    });
    await expect(readDocument(createObjectReader(), 'interview-reports', 'interview-reports/c1/8.pdf', bucket)).rejects.toThrow(/answered 404/);
  });

  it('neither stores nor reads a key outside the kind', async () => {
    await expect(attachDocument(s3(), 'interview-reports', 'evidence/c1/7.pdf', pdf, 'The report', bucket)).rejects.toThrow(
      /not a key of the interview-reports documents/,
    );
    await expect(readDocument(createObjectReader(), 'interview-reports', 'interview-reports/../evidence/7.pdf', bucket)).rejects.toThrow(/not a key/);
  });
});
