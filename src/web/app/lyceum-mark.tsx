import type { ComponentProps } from 'react';

/** The Lyceum logo: a columned portico on a navy shield. Decorative; the link carries the name. */
export function LyceumMark(props: ComponentProps<'svg'>) {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true" focusable="false" {...props}>
      <rect width="40" height="40" rx="9" fill="var(--primary)" />
      <path d="M20 7 8.5 13.5h23L20 7Z" fill="var(--highlight)" />
      <rect x="10" y="15.5" width="20" height="2" rx="0.5" fill="#fff" />
      <rect x="11.5" y="19" width="3" height="10" rx="0.6" fill="#fff" />
      <rect x="18.5" y="19" width="3" height="10" rx="0.6" fill="#fff" />
      <rect x="25.5" y="19" width="3" height="10" rx="0.6" fill="#fff" />
      <rect x="9" y="30.5" width="22" height="2.5" rx="0.6" fill="#fff" />
    </svg>
  );
}
