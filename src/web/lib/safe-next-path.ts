/**
 * Where to go after signing in, from a `next` query parameter. The value comes from whoever
 * wrote the link, so only a path on this site is accepted: `//evil.example`, `/\evil.example`,
 * `https://…` and `javascript:` would otherwise send a freshly signed-in user elsewhere.
 */
export function safeNextPath(value: string | null | undefined, origin: string): string | undefined {
  if (!value || value.length > 2048 || !value.startsWith('/')) return undefined;
  // Browsers read "//host" and "/\host" as another host; control characters can hide either.
  if (value.startsWith('//') || value.startsWith('/\\') || hasControlCharacter(value)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The sign-in address that brings the user back to `path` afterwards. */
export function loginPathFor(path: string): string {
  return `/login?next=${encodeURIComponent(path)}`;
}
