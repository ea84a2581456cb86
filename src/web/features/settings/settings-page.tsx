/**
 * The learner's settings (issue 12, decision 0170): profile and picture, sign-in email and
 * password (re-authenticated with a mailed code), two-factor on the account screen, the
 * accessibility preferences the whole app applies, and language.
 */
import { Link } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { findRoute } from '@common/routes';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { SubscriptionCard } from '@/components/subscription-card';
import { useAppSession } from '@/lib/app-session';
import { usePreferences } from '@/lib/user-preferences';
import { AccessibilityForm } from './accessibility-form';
import { EmailForm, PasswordForm } from './sign-in-forms';
import { ProfileForm } from './profile-form';

const PRIVACY_PATH = '/app/privacy';

export function SettingsPage() {
  const { userId, email } = useAppSession();
  const preferences = usePreferences(userId);
  // The privacy tools are another feature's screen; link to it once the route exists.
  const privacy = findRoute(PRIVACY_PATH);

  return (
    <AppPage
      title="Settings"
      intro="Your profile, how you sign in, and how the app looks and reads."
    >
      <Section
        title="Profile"
        id="settings-profile"
        description="How course mates and instructors see you."
      >
        <ProfileForm userId={userId} />
      </Section>

      <Section
        title="Sign-in and security"
        id="settings-security"
        description="Changing your email or password needs a code or link we send by email."
      >
        <div className="grid gap-6">
          <EmailForm email={email} />
          <PasswordForm />
          <div className="grid gap-2 border-t pt-4">
            <h3 className="font-medium">Two-factor authentication and sessions</h3>
            <p className="text-sm text-muted-foreground">
              Set up an authenticator app and recovery codes, or sign out other devices, on the
              account screen.
            </p>
            <Link
              to="/account"
              className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline underline-offset-4"
            >
              <ShieldCheck aria-hidden="true" className="size-4" />
              Manage two-factor and sessions
            </Link>
          </div>
          {privacy && (
            <div className="grid gap-2 border-t pt-4">
              <h3 className="font-medium">Your data</h3>
              <p className="text-sm text-muted-foreground">
                Download a copy of your data or ask for it to be deleted.
              </p>
              <Link
                to={PRIVACY_PATH}
                className="w-fit rounded-sm text-sm font-medium text-primary underline underline-offset-4"
              >
                {privacy.label}
              </Link>
            </div>
          )}
        </div>
      </Section>

      <Section
        title="Plan"
        id="settings-plan"
        description={
          <>
            Your tier and its monthly allowances.{' '}
            <Link
              to="/app/plans"
              className="rounded-sm font-medium text-primary underline underline-offset-4"
            >
              Compare plans
            </Link>
          </>
        }
      >
        <SubscriptionCard userId={userId} />
      </Section>

      <Section
        title="Accessibility, language and study"
        id="settings-accessibility"
        description="Applied on every screen of the app, on each device you sign in on."
      >
        {preferences.isPending ? (
          <LoadingBlock label="Loading your preferences…" />
        ) : preferences.isError ? (
          <LoadError
            message={`Could not load your preferences: ${preferences.error.message}`}
            onRetry={() => void preferences.refetch()}
          />
        ) : (
          <AccessibilityForm userId={userId} initial={preferences.data.preferences} />
        )}
      </Section>
    </AppPage>
  );
}
