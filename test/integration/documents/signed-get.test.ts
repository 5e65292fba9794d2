import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../../../functions/core/documents/attach.js';
import { createObjectReader, objectUrl, s3Signer, S3ReadError } from '../../../functions/core/documents/signed-get.js';
import { ensureBucket } from '../../../lib/local/provision.js';
import { uniqueName, useEmulatorEnv } from '../../support/env.js';

describe('reading an S3 object without the S3 client', () => {
  it('signs a GET exactly as AWS documents it (the "GET Object" example of Signature Version 4)', async () => {
    const signer = s3Signer('us-east-1', { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' });
    const signed = await signer.sign(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: 'examplebucket.s3.amazonaws.com',
        path: '/test.txt',
        query: {},
        headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9' },
      },
      { signingDate: new Date('2013-05-24T00:00:00Z') },
    );
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('addresses the regional endpoint in the cloud and the emulator path-style, each key segment escaped once', () => {
    expect(objectUrl({ region: 'eu-west-2' }, 'reports', 'interview-reports/c 1/7.pdf').href).toBe(
      'https://reports.s3.eu-west-2.amazonaws.com/interview-reports/c%201/7.pdf',
    );
    expect(objectUrl({ region: 'eu-west-2', endpoint: 'http://127.0.0.1:4566/' }, 'reports', 'a/b.pdf').href).toBe('http://127.0.0.1:4566/reports/a/b.pdf');
  });

  it('reads back what the S3 client stored, byte for byte, and says so when there is nothing', async () => {
    useEmulatorEnv();
    process.env.AWS_ENDPOINT_URL_S3 = process.env.AWS_ENDPOINT_URL_SQS;
    const bucket = uniqueName('reports');
    const s3 = createS3Client();
    await ensureBucket(s3, bucket);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 256))]);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'interview-reports/c1/7.pdf', Body: pdf }));
    const read = createObjectReader();
    expect((await read(bucket, 'interview-reports/c1/7.pdf')).equals(pdf)).toBe(true);
    await expect(read(bucket, 'interview-reports/c1/8.pdf')).rejects.toThrow(S3ReadError);
    await expect(read(bucket, 'interview-reports/c1/8.pdf')).rejects.toThrow(/answered 404/);
  });
});
