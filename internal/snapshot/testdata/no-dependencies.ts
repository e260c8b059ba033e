import { EventEmitter } from 'node:events';
import { clamp } from './math';

const DEFAULT_CAPACITY = 16;

export class RingBuffer<T> extends EventEmitter {
  private items: T[] = [];
  private head = 0;
  private capacity = DEFAULT_CAPACITY;

  push(item: T): void {
    this.items[this.head] = item;
    this.head = clamp(this.head + 1, 0, this.capacity);
    this.emit('push', item);
  }

  static range(from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = from; i < to; i++) {
      out.push(i);
    }
    return out;
  }

  get size(): number {
    return this.items.length;
  }
}
