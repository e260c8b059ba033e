export type ReceiptStatus = 'paid' | 'refunded';

export class Receipt {
  constructor(
    public readonly orderId: string,
    public readonly status: ReceiptStatus,
  ) {}
}
