import { Widget, Plain } from './widget.js';

export function createWidget(name: string): Widget {
  return new Widget(name);
}

export function createPlain(): Plain {
  return new Plain();
}
