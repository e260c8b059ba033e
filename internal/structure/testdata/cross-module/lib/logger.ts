export default class Logger {
  log(message: string): void {
    console.log(message);
  }
}
