/** Owner-facing words for the trust records (browser-safe: no ORM, no Node). */
export const HOLD_STATUS_LABELS = {
  held: 'Waiting for your review',
  awaiting_email: 'Waiting for the customer to confirm their email',
  released: 'Released',
  rejected: 'Rejected',
} as const;

export const AUDIT_EVENT_LABELS: Record<string, string> = {
  queued: 'Reward queued',
  held: 'Reward held',
  not_rewarded: 'No reward sent',
  email_confirmed: 'Customer confirmed their email',
  released: 'Reward released',
  rejected: 'Reward rejected',
  issued: 'Gift card issued',
};

export const actorLabel = (actor: string) =>
  actor === 'system' ? 'RewardLoop' : actor === 'customer' ? 'The customer' : actor.startsWith('owner:') ? `Owner (${actor.slice(6)})` : actor.startsWith('cli:') ? `Support CLI (${actor.slice(4)})` : actor;
