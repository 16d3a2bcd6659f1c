import { createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { StoreLocation } from './store-url.ts';

/** Files above this are uploaded in parts of this size (S3 allows 10,000 parts: 160 GB). */
const PART_BYTES = 16 * 1024 * 1024;
/** A connection that carries no byte for this long (a stalled server, mid-body too) fails the request. */
const IDLE_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 5_000;

export interface StoredObject {
  bytes: number;
  /** The sha256 the uploader stored as object metadata (x-amz-meta-sha256), if any. */
  sha256: string | null;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * The bucket (and key prefix) of RELEASE_STORE through @aws-sdk/client-s3. Files are streamed
 * both ways; large ones are uploaded in parts. Credentials come from the SDK's default chain
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, profiles, instance roles).
 */
export class ReleaseBucket {
  readonly client: S3Client;

  constructor(readonly location: StoreLocation, options: { endpoint?: string | null; partBytes?: number; idleTimeoutMs?: number } = {}) {
    this.partBytes = options.partBytes ?? PART_BYTES;
    this.client = new S3Client({
      // S3-compatible servers often ignore the region, but the SDK needs one.
      region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      // The SDK's default CRC trailers break many S3-compatible servers; releases carry their own sha256.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An idle timeout, not a total one: a GB download may take long, but never stalls for a minute.
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS },
    });
  }

  private readonly partBytes: number;

  describe(): string {
    return `s3://${this.location.bucket}${this.location.prefix ? `/${this.location.prefix}` : ''}`;
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key }));
      return { bytes: out.ContentLength ?? 0, sha256: out.Metadata?.sha256 ?? null };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** The object's bytes as a stream, or null when there is no such object. */
  async read(key: string, signal?: AbortSignal): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }), { abortSignal: signal });
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Streams the object into `file`; false when there is no such object. */
  async download(key: string, file: string, signal?: AbortSignal): Promise<boolean> {
    const body = await this.read(key, signal);
    if (!body) return false;
    await pipeline(body, createWriteStream(file), { signal });
    return true;
  }

  async putText(key: string, text: string, sha256: string): Promise<void> {
    await this.client.send(new PutObjectCommand({
      Bucket: this.location.bucket, Key: key, Body: text, ContentType: 'application/json', Metadata: { sha256 },
    }));
  }

  /** Uploads a file streamed from disk, in parts when it is large; its sha256 goes into the metadata. */
  async upload(key: string, file: string, sha256: string): Promise<void> {
    const bytes = (await stat(file)).size;
    const handle = await open(file, 'r');
    try {
      if (bytes <= this.partBytes) {
        await this.client.send(new PutObjectCommand({
          Bucket: this.location.bucket, Key: key, Body: handle.createReadStream({ autoClose: false, start: 0 }), ContentLength: bytes, Metadata: { sha256 },
        }));
        return;
      }
      await this.uploadParts(key, handle, bytes, sha256);
    } finally {
      await handle.close();
    }
  }

  private async uploadParts(key: string, handle: Awaited<ReturnType<typeof open>>, bytes: number, sha256: string): Promise<void> {
    const Bucket = this.location.bucket;
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, Metadata: { sha256 } }));
    try {
      const parts: { ETag: string; PartNumber: number }[] = [];
      // One part in memory at a time: a buffer the SDK can resend when a part's request is retried.
      const buffer = Buffer.allocUnsafe(this.partBytes);
      for (let offset = 0, PartNumber = 1; offset < bytes; offset += this.partBytes, PartNumber += 1) {
        const length = Math.min(this.partBytes, bytes - offset);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        if (bytesRead !== length) throw new Error(`${key}: short read at byte ${offset}`);
        const { ETag } = await this.client.send(new UploadPartCommand({
          Bucket, Key: key, UploadId, PartNumber, Body: buffer.subarray(0, length), ContentLength: length,
        }));
        parts.push({ ETag: ETag!, PartNumber });
      }
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => {});
      throw err;
    }
  }

  /** Every key under the prefix (paginated). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const out = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: prefix, ContinuationToken }));
      for (const item of out.Contents ?? []) if (item.Key) keys.push(item.Key);
      ContinuationToken = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  }

  /** One request per key: DeleteObjects needs a Content-MD5 that not every S3-compatible server accepts. */
  async remove(keys: string[]): Promise<void> {
    for (const key of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
  }
}
