import { Link } from 'react-router';
import { brand } from '@common/brand';
import { docGroups, routesInGroup } from '@common/site-routes';
import { openConsentChoices } from '@/lib/consent-allows';
import { LyceumMark } from './lyceum-mark';

export function SiteFooter() {
  return (
    <footer className="mt-auto border-t bg-muted/60">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-12 sm:px-8 md:grid-cols-[1.3fr_repeat(3,1fr)]">
        <div className="space-y-3">
          <div className="flex items-center gap-2.5">
            <LyceumMark className="size-8" />
            <span className="font-serif text-lg font-semibold text-primary">{brand.product}</span>
          </div>
          <p className="max-w-xs text-sm leading-relaxed text-muted-foreground">
            {brand.tagline}. A learning platform for universities, built by {brand.company}.
          </p>
          <p className="text-sm">
            <a
              className="font-medium text-primary underline-offset-4 hover:underline"
              href={`mailto:${brand.supportEmail}`}
            >
              {brand.supportEmail}
            </a>
          </p>
        </div>
        {docGroups.map((group) => (
          <nav key={group} aria-label={`${group} pages`} className="space-y-3">
            <h2 className="text-sm font-semibold text-foreground">{group}</h2>
            <ul className="space-y-2 text-sm">
              {routesInGroup(group).map((route) => (
                <li key={route.path}>
                  <Link
                    to={route.path}
                    className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
                  >
                    {route.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-5 py-5 text-xs text-muted-foreground sm:px-8">
          <p>
            © {brand.copyrightYear} {brand.company}. All rights reserved.
          </p>
          <button
            type="button"
            className="font-medium text-primary underline-offset-4 hover:underline"
            onClick={openConsentChoices}
          >
            Privacy choices
          </button>
        </div>
      </div>
    </footer>
  );
}
