/**
 * Waiting for a prerendered page to become interactive. Its HTML (buttons included) is on
 * screen before React has hydrated it, and a click or key pressed before then does nothing: a
 * person would press again, a test would wait for an outcome that never comes. On a loaded
 * machine hydration can end well after `load` or even `networkidle`.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Resolves once React has committed its hydration of `#root`, so the page's handlers answer
 * clicks and keys. A page rendered in the browser only (the /app screens, the account screens)
 * resolves at once: it has nothing to hydrate and its controls appear with their handlers.
 * Reads React's root: the container's fiber root keeps `isDehydrated` true until then.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    if (!root) return false;
    if (!root.hasChildNodes()) return true;
    const key = Object.keys(root).find((name) => name.startsWith('__reactContainer$'));
    if (!key) return false;
    const hostRoot = (root as unknown as Record<string, unknown>)[key] as {
      stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } };
    };
    return hostRoot.stateNode?.current?.memoizedState?.isDehydrated === false;
  });
}

/** Opens a prerendered page and resolves once it has hydrated (see waitForHydration). */
export async function gotoHydrated(
  page: Page,
  url: string,
  options: Parameters<Page['goto']>[1] = {},
): Promise<Awaited<ReturnType<Page['goto']>>> {
  const response = await page.goto(url, options);
  await waitForHydration(page);
  return response;
}

/**
 * Resolves once React has hydrated this element, for a part of a page that hydrates later
 * than the rest (a deferred part, decision 0194): before then its links are plain links and
 * its buttons do nothing. React attaches an element's props when it hydrates it.
 */
export async function waitForHydrated(element: Locator): Promise<void> {
  await expect
    .poll(() =>
      element.evaluate((node) =>
        Object.keys(node).some((name) => name.startsWith('__reactProps$')),
      ),
    )
    .toBe(true);
}
