// Declaration merging: two interface declarations and a function merged
// with a namespace.
export interface Settings {
  verbose: boolean;
}

export interface Settings {
  level: number;
}

export function defaults(): Settings {
  return { verbose: false, level: defaults.LEVEL };
}

export namespace defaults {
  export const LEVEL = 1;
}
