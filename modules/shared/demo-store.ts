/**
 * Where the demo and fake adapters keep their objects (issue 26): the fake's customers, SetupIntents,
 * subscriptions and portal sessions, the demo point of sale's one-time codes. In PostgreSQL (the
 * `demo.objects` table, `PgDemoStore`), so every instance on one database sees the same objects: a
 * checkout begun on one instance is finished on another, and a mail written to the outbox by one is
 * listed by the other. Objects are JSON values named by a kind and
 * an id; an object may expire (it is then never returned).
 */
export interface DemoStore {
  /** The object, or null when missing or expired. */
  get<T>(kind: string, id: string): Promise<T | null>;
  /** Stores a new object; false (nothing changed) when one with this kind and id exists and has not expired. */
  insert<T>(kind: string, id: string, data: T, options?: { expiresAt?: Date }): Promise<boolean>;
  /**
   * Reads the object under a lock (a concurrent update of the same object waits), passes it to
   * `change`, and stores what `change` returns. Null when missing or expired; `change` may return the
   * object unchanged.
   */
  update<T>(kind: string, id: string, change: (current: T) => T): Promise<T | null>;
  /** Removes the object and returns it, once: a second take, in any instance, finds nothing. */
  take<T>(kind: string, id: string): Promise<T | null>;
  /** The live objects of a kind whose top-level `field` equals `value`, oldest first. */
  findBy<T>(kind: string, field: string, value: string): Promise<T[]>;
  /** The newest live objects of a kind, newest first, at most `limit`. */
  latest<T>(kind: string, limit: number): Promise<T[]>;
}
