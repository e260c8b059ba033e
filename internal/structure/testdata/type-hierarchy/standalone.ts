export class Standalone {
  run(): void {}
}
