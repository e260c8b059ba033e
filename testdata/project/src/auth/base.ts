export abstract class BaseValidator {
  protected failures = 0;

  protected recordFailure(): void {
    this.failures++;
  }
}
