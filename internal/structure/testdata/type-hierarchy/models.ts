import type { Entity, Serializable } from './interfaces.js';

export abstract class BaseModel implements Entity, Serializable {
  constructor(public id: string) {}

  abstract validate(): boolean;

  serialize(): string {
    return JSON.stringify(this);
  }
}

export class User extends BaseModel {
  constructor(id: string, public email: string) {
    super(id);
  }

  validate(): boolean {
    return this.email.includes('@');
  }
}

export class AdminUser extends User {
  permissions: string[] = [];
}
