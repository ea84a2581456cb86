/**
 * The learner's privacy page (/app/privacy): consent choices, and their data requests.
 */
import { AppPage } from '@/components/app-page';
import { useAppSession } from '@/lib/app-session';
import { ConsentSettings } from './consent-settings';
import { MyRequests } from './my-requests';

export function PrivacyPage() {
  const { userId } = useAppSession();
  return (
    <AppPage
      title="Privacy"
      intro="Your choices about cookies and storage, and your rights over the data Lyceum holds about you."
    >
      <ConsentSettings userId={userId} />
      <MyRequests userId={userId} />
    </AppPage>
  );
}
