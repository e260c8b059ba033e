import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip, gunzip } from 'node:zlib';
import type { Blob, BlobStore } from './store';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const HASH = 'sha256';

export class ContentStore {
  private readonly root: string;
  #hits = 0;

  constructor(private readonly backend: BlobStore, root = '/') {
    this.root = root;
  }

  async put(data: Buffer): Promise<string> {
    const key = this.keyOf(data);
    await this.backend.write(key, await gzipAsync(data));
    return key;
  }

  keyOf(data: Buffer): string {
    return `${this.root}${createHash(HASH).update(data).digest('hex')}`;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const blob: Blob | undefined = await this.backend.read(key);
    if (!blob) return undefined;
    this.#hits++;
    return gunzipAsync(blob.data);
  }

  get hits(): number {
    return this.#hits;
  }
}
