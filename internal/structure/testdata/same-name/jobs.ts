function send(to: string): void {}
function dial(to: string): void {}

// Two methods named `run` in one file: call trees keep them apart
// (grouped by file:name:line).
export class EmailJob {
  run(): void {
    send('ops@example.com');
  }
}

export class SmsJob {
  run(): void {
    dial('+100');
  }
}
