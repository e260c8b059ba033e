import { BaseModel } from './models.js';
import type { Auditable } from './interfaces.js';

// Entity is reached twice: through BaseModel and through Auditable.
export class AuditedModel extends BaseModel implements Auditable {
  updatedBy = 'system';

  validate(): boolean {
    return this.updatedBy.length > 0;
  }
}
