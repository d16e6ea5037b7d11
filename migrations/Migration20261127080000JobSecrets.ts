import { Migration } from '@mikro-orm/migrations';

/**
 * No secret in job payloads (issue 25): the reward-confirm-email job used to carry the customer's
 * confirmation token in its payload, kept by pg-boss in `pgboss.job` after the job finished. The job
 * now mints the token when it sends; this removes the token from every stored payload (a job still
 * queued mints its own). pg-boss creates its schema itself, so a database without it is left alone.
 */
export class Migration20261127080000JobSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
begin
  if to_regclass('pgboss.job') is not null then
    update pgboss.job set data = data - 'token' where name = 'reward-confirm-email' and data ? 'token';
  end if;
end
$$;`);
  }

  override async down(): Promise<void> {
    // The tokens are gone for good; nothing to restore.
  }
}
