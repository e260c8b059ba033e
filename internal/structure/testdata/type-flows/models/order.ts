export interface LineItem {
  sku: string;
  quantity: number;
}

export interface Order {
  id: string;
  items: LineItem[];
}
