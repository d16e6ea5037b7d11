import type { Command } from 'commander';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword, newAccountSchema } from '../../modules/accounts/server.ts';
import { signUpSchema } from '../../modules/accounts/forms.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';

type CreateFlags = { name?: string; email?: string; password?: string };

/** Which flag each sign-up field comes from, for messages. */
const FLAG_OF: Record<string, string> = {
  displayName: '--name',
  email: '--email',
  password: '--password',
  confirmPassword: '--password',
};

/** A prompt validator from one field of the sign-up schema: true, or the spec's message. */
function fieldValidator(field: 'displayName' | 'email' | 'password') {
  return (value: string): true | string => {
    const result = signUpSchema.shape[field].safeParse(value);
    if (!result.success) return result.error.issues[0]?.message ?? 'Invalid value';
    return field === 'password' && isCommonPassword(value) ? COMMON_PASSWORD_MESSAGE : true;
  };
}

/** Flags first; a prompt only for what they leave out, and only on a terminal. */
async function collectInput(io: CliIo, flags: CreateFlags) {
  const missing = (['name', 'email', 'password'] as const).filter((flag) => flags[flag] === undefined);
  if (missing.length > 0 && !io.interactive) {
    throw new CliError(
      EXIT.usage,
      `Missing ${missing.map((f) => `--${f}`).join(', ')}. Pass ${missing.length > 1 ? 'them as flags' : 'it as a flag'}, or run in a terminal to be asked.`,
    );
  }
  const displayName = flags.name ?? (await io.prompts.input({ message: 'Business name', validate: fieldValidator('displayName') }));
  const email = flags.email ?? (await io.prompts.input({ message: 'Email address', validate: fieldValidator('email') }));
  let password = flags.password;
  let confirmPassword = password;
  if (password === undefined) {
    // A typo in a masked answer cannot be seen, so a prompted password is asked twice.
    password = await io.prompts.password({ message: 'Password', mask: true, validate: fieldValidator('password') });
    confirmPassword = await io.prompts.password({ message: 'Confirm password', mask: true });
  }
  return { displayName, email, password, confirmPassword, terms: true };
}

export function registerAccountCommands(program: Command, io: CliIo): void {
  const accounts = program.command('accounts').description('business owner accounts: create');

  accounts
    .command('create')
    .description('create a business owner account (asks for missing values on a terminal)')
    .option('--name <name>', 'business name')
    .option('--email <email>', 'email address to sign in with')
    .option('--password <password>', 'password (at least 8 characters)')
    .action(async (flags: CreateFlags) => {
      const parsed = newAccountSchema.safeParse(await collectInput(io, flags));
      if (!parsed.success) {
        const lines = parsed.error.issues.map((i) => `  ${FLAG_OF[String(i.path[0])] ?? String(i.path[0] ?? 'input')}: ${i.message}`);
        throw new CliError(EXIT.usage, `Invalid input:\n${lines.join('\n')}`);
      }
      const input = parsed.data;
      await withRoot(io, {}, async (root, { accounts }) => {
        await requireMigrated(root);
        const result = await accounts.signUp(input);
        if (!result.ok) {
          throw new CliError(EXIT.failure, Object.values(result.errors).flat().join('\n'));
        }
        const { business } = result;
        io.out.write(
          `Created account for '${business.displayName}' <${business.email}> (id ${business.id}).\n` +
            `A verification email was sent to ${business.email}` +
            (root.outbox ? ` (kept in ${root.outbox.location}).\n` : '.\n'),
        );
      });
    });
}
