import { initialize } from './helper.js';

export class Widget {
  readonly name: string;

  constructor(name: string) {
    this.name = initialize(name);
  }
}

export class Plain {
  kind = 'plain';
}
