import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { LegalPage } from '#app/components/legal.tsx';

export const meta: MetaFunction = () => [{ title: 'Terms of Service — RewardLoop' }];

export default function Terms() {
  return (
    <LegalPage title="Terms of Service" updated="21 November 2026">
      <p>
        These terms govern your use of RewardLoop, a service that lets a business run customer surveys and reward customers with gift
        cards. By creating an account you agree to them on behalf of your business.
      </p>
      <h2>Your account</h2>
      <ul>
        <li>You must give accurate details and keep your password secret. You are responsible for everything done with your account.</li>
        <li>One account belongs to one business. Tell us at once if you think someone else has used your account.</li>
      </ul>
      <h2>Surveys and rewards</h2>
      <ul>
        <li>You decide the questions, reward tiers and amounts. Gift cards are issued from your connected point-of-sale account and are your business's obligation to honour.</li>
        <li>Rewards must not be conditional on a positive review. Ask for honest feedback and follow the rules of each review platform you use.</li>
        <li>Without a connected point-of-sale account, rewards are test cards with no monetary value.</li>
      </ul>
      <h2>Subscriptions and trials</h2>
      <ul>
        <li>Publishing surveys needs an active subscription or free trial. A business can use one free trial in any six months.</li>
        <li>Subscriptions renew automatically until you cancel. Cancellation takes effect immediately and is not refunded for the current period.</li>
      </ul>
      <h2>Acceptable use</h2>
      <p>Do not use RewardLoop to send spam, collect data you are not entitled to, mislead customers, or break any law.</p>
      <h2>Availability and liability</h2>
      <p>
        We work to keep RewardLoop available and your data safe, but the service is provided as is. To the extent the law allows, our
        liability is limited to the fees you paid in the twelve months before a claim.
      </p>
      <h2>Changes and ending</h2>
      <p>
        We may change these terms and will tell you by email before material changes take effect. You may close your account at any
        time; we may suspend accounts that break these terms.
      </p>
      <p>
        See also our <Link to="/privacy" className="text-brand-700 underline">Privacy Policy</Link>.
      </p>
    </LegalPage>
  );
}
