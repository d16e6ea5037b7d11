import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for the tests (ADR 075): s3rver, in this process, on a free loopback
 * port, keeping its objects in a temporary folder. It accepts any credentials the client signs with.
 */
export type TestS3 = {
  endpoint: string;
  bucket: string;
  /** The env a root or the CLI needs to use it (BLOB_STORE=s3 and the S3_* variables). */
  env: Record<string, string>;
  close(): Promise<void>;
};

export async function startTestS3(bucket = 'rewardloop-test'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'rewardloop-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // The SDK's standard chain reads these from the environment; s3rver takes any signature.
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  return {
    endpoint,
    bucket,
    env: { BLOB_STORE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
