import type { Command } from 'commander';
import { giftCardProviderFor } from '../../modules/rewards/index.ts';
import { CliError, EXIT, requireMigrated, withRoot, type CliIo } from '../runtime.ts';
import { requiredId } from './rewards.ts';

export function registerSquareCommands(program: Command, io: CliIo): void {
  const square = program.command('square').description('Square connections: status');

  square
    .command('status')
    .description("a business's Square connection: connected, merchant, location, token expiry (never the tokens)")
    .argument('[businessId]', 'the business id (asked on a terminal when left out)')
    .action(async (arg: string | undefined) => {
      const businessId = await requiredId(io, arg, 'Business id', 'businessId');
      await withRoot(io, {}, async (root, { posOperations }) => {
        await requireMigrated(root);
        const status = await posOperations.connection(businessId);
        if (!status) throw new CliError(EXIT.failure, `No business ${businessId}.`);
        const expires = status.tokenExpiresAt;
        const lines = [
          `Business:       ${status.displayName} (${status.businessId})`,
          `Square:         ${status.isConnected ? 'connected' : 'not connected'}`,
          `Merchant:       ${status.merchantId ?? '-'}`,
          `Location:       ${status.locationId ? `${status.locationName ?? '(no name)'} (${status.locationId})` : status.isConnected ? 'none chosen: rewards are Test cards until one is' : '-'}`,
          `Token expires:  ${expires ? `${expires.toISOString()}${expires.getTime() < Date.now() ? ' (expired)' : ''}` : status.isConnected ? 'not recorded' : '-'}`,
          `Gift cards:     ${giftCardProviderFor({ squareCards: root.giftCards.square !== null }, { squareConnected: status.isConnected, locationId: status.locationId }) === 'square' ? 'Square' : 'Test'} (GIFT_CARDS=${root.config.GIFT_CARDS})`,
        ];
        io.out.write(`${lines.join('\n')}\n`);
      });
    });
}
