import { EventEmitter } from 'node:events';
import type { Job } from './jobs';

const RETRY_LIMIT = 5;
const BACKOFF_MS = 250;

export namespace Scheduler {
  const TICK_MS = 100;
  const IDLE_MS = 1_000;

  export class Queue extends EventEmitter {
    static readonly DEFAULT_CONCURRENCY = 4;
    #pending: Job[] = [];
    private running = 0;
    private paused = false;
    private idleTimer?: ReturnType<typeof setTimeout>;

    constructor(private readonly concurrency = Queue.DEFAULT_CONCURRENCY) {
      super();
    }

    drain(): void {
      const { paused } = this;
      if (paused) return;
      while (this.running < this.concurrency && this.#pending.length > 0) {
        const job = this.#pending.shift()!;
        this.running++;
        job.run().finally(() => {
          this.running--;
          setTimeout(() => this.drain(), TICK_MS);
        });
      }
    }

    pause(): void {
      this.paused = true;
      this.idleTimer = setTimeout(() => this.emit('idle'), IDLE_MS);
    }
  }
}

export function retrying(jobs: Job[]): Promise<void>[] {
  const BACKOFF_MS = 100;
  return jobs.map((job) =>
    job.run().catch(async (err: Error) => {
      for (let attempt = 1; attempt <= RETRY_LIMIT; attempt++) {
        await new Promise((r) => setTimeout(r, BACKOFF_MS * attempt));
        if (await job.run().then(() => true, () => false)) return;
      }
      throw err;
    }),
  );
}
