export interface Entity {
  id: string;
}

export interface Serializable {
  serialize(): string;
}

/** Entities that record who changed them. */
export interface Auditable extends Entity {
  updatedBy: string;
}
