export interface AccountOptions {
  owner: string;
  readonly currency: string;
  limit?: number;
  notify(event: string): void;
}

export class Account {
  static readonly PREFIX = 'ACC';
  #secret = 0;
  balance = 0;
  protected history: number[] = [];

  constructor(private readonly options: AccountOptions, public id: string) {}

  get owner(): string {
    return this.options.owner;
  }

  set limit(value: number) {
    this.options.limit = value;
  }

  deposit(amount: number): this {
    this.balance += amount;
    this.history.push(amount);
    return this;
  }

  async withdraw(amount: number): Promise<boolean> {
    if (amount > this.balance) return false;
    this.balance -= amount;
    return true;
  }

  private audit(): void {}

  static open(options: AccountOptions): Account {
    return new Account(options, Account.PREFIX + Date.now());
  }
}
