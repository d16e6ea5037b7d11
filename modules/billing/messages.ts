import { PLAN_NOT_FOUND } from './plans.ts';

/** The billing pages' wording (spec section 8): pure, so pages and the service share it. */
export const BILLING_MESSAGES = {
  planNotFound: PLAN_NOT_FOUND,
  signedOut: 'Please log in to continue with your subscription',
  alreadySubscribedTitle: 'Subscription Already Exists',
  alreadySubscribed: 'You already have an active subscription. Redirecting to manage your plan.',
  setupFailedTitle: 'Setup Failed',
  setupNotCompleted: 'Payment setup was not completed successfully.',
  setupCompleteFailed: 'Failed to complete subscription setup.',
  setupErrorTitle: 'Setup Error',
  setupMissing: 'We could not find this checkout. Please choose your plan again.',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  noCustomer: 'No Stripe customer found for this account.',
  incomplete: 'No valid subscription: your plan setup is not finished (INCOMPLETE_SUBSCRIPTION).',
  noSubscriptionToCancel: 'No valid subscription to cancel.',
  cancellationFailedTitle: 'Cancellation Failed',
  canceledTitle: 'Subscription Canceled',
  canceled: 'Your subscription was canceled. Your surveys, responses and rewards are kept.',
  wrongBusiness: 'This checkout belongs to another account.',
  checkoutUsedTitle: 'Checkout Already Used',
  checkoutUsed: 'This checkout was finished before, and the subscription it started is no longer active. Choose a plan to subscribe again.',
} as const;

/** The portal's error title by cause (spec section 8, "Billing portal"). */
export function portalErrorTitle(message: string): string {
  if (message.includes('No valid subscription') || message.includes('INCOMPLETE_SUBSCRIPTION')) return 'Trial Setup Incomplete';
  if (message.includes('No Stripe customer')) return 'No Subscription Found';
  return 'Billing Portal Unavailable';
}

/** 'Selection Failed' wording by status (spec section 8). */
export function selectionFailedMessage(status: number, message?: string | null): string {
  if (status === 401) return 'Please log in again to continue.';
  if (status === 403) return 'Access denied. Please check your account status.';
  if (status >= 500) return 'Server error. Please try again in a moment.';
  return message || 'Failed to select plan. Please try again.';
}
