import { add } from './money';

export interface Line {
  price: number;
  quantity: number;
}

export class Cart {
  private lines: Line[] = [];

  addLine(line: Line): void {
    this.lines.push(line);
  }

  total(): number {
    return this.lines.reduce((sum, l) => add(sum, l.price * l.quantity), 0);
  }
}
