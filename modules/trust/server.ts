/** modules/trust, the server face: fraud signals, held rewards and the append-only audit trail (ADR 050). */
export * from './entities.ts';
export * from './signals.ts';
export * from './holds.ts';
export * from './audit.ts';
