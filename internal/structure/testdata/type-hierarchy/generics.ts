import type { Entity } from './interfaces.js';
import { User } from './models.js';

export interface Repository<T extends Entity, ID = string> {
  find(id: ID): T | undefined;
  save(item: T): void;
}

export interface Queryable<T extends Entity> extends Repository<T> {
  where(predicate: (item: T) => boolean): T[];
}

export class Container<T> {
  constructor(private readonly items: T[] = []) {}

  all(): T[] {
    return this.items;
  }
}

export class UserRepository extends Container<User> implements Queryable<User> {
  find(id: string): User | undefined {
    return this.all().find((u) => u.id === id);
  }

  save(item: User): void {
    this.all().push(item);
  }

  where(predicate: (item: User) => boolean): User[] {
    return this.all().filter(predicate);
  }
}
