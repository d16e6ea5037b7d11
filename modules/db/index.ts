/** modules/db: every entity the ORM knows (server/database.ts). */
export { entities } from './entities.ts';
