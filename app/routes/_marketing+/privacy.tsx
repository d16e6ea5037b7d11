import type { MetaFunction } from '@remix-run/node';
import { LegalPage } from '#app/components/legal.tsx';

export const meta: MetaFunction = () => [{ title: 'Privacy Policy — RewardLoop' }];

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="27 November 2026">
      <p>This policy explains what RewardLoop stores, why, and the choices you have.</p>
      <h2>Business owners</h2>
      <ul>
        <li>Account details: business name, email address, and a password hash (never the password itself), or your Google account id when you sign in with Google.</li>
        <li>Connection details for your point-of-sale and payment accounts, used only to issue gift cards and manage your subscription.</li>
        <li>A session record while you are signed in, kept in a cookie that scripts cannot read.</li>
      </ul>
      <h2>Customers who answer a survey</h2>
      <ul>
        <li>Survey answers, the email address and optional name given to receive a reward, and screenshots uploaded to claim points.</li>
        <li>The IP address and browser type of a submission, used to prevent repeat claims and abuse.</li>
        <li>This data is shared only with the business that runs the survey. Survey pages load no third-party scripts, trackers or images.</li>
      </ul>
      <h2>Screenshots used to improve verification</h2>
      <p>
        When a business releases or rejects a reward, or marks a screenshot as genuine or not, we store its verdict beside our checker&apos;s.
        Only if the business turns on &quot;Share labelled screenshots to improve verification&quot; (it is off unless they do) may RewardLoop
        copy those screenshots, with the name or handle the customer typed and the business&apos;s verdict, to measure and improve how we
        check screenshots. The copies stay with RewardLoop, are not sold or shared with anyone else, and are not used to train any third
        party&apos;s model. A business can turn it off at any time on its profile page; nothing is copied after that.
      </p>
      <h2>How long we keep data</h2>
      <p>
        Survey responses and reward records are kept while the business's account is open and deleted with it. Expired sessions are
        removed automatically.
      </p>
      <h2>Emails</h2>
      <p>We send account emails (such as email confirmation) to owners, and reward emails with the gift card to customers. We do not send marketing email to customers.</p>
      <h2>Your rights</h2>
      <p>
        You may ask for a copy of your data, its correction or its deletion. Customers may ask the business that ran the survey, or us,
        to delete their responses.
      </p>
    </LegalPage>
  );
}
