import { EmailJob, SmsJob } from './jobs.js';

export function runAll(email: EmailJob, sms: SmsJob): void {
  email.run();
  sms.run();
}
