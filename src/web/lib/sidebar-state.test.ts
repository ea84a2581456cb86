import { describe, expect, it } from 'vitest';
import { parseSidebarCookie } from './sidebar-state';

describe('parseSidebarCookie', () => {
  it('is open when the cookie is missing', () => {
    expect(parseSidebarCookie('')).toBe(true);
    expect(parseSidebarCookie('theme=dark; other=1')).toBe(true);
  });

  it('reads the stored state among other cookies', () => {
    expect(parseSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(parseSidebarCookie('sidebar_state=true')).toBe(true);
  });

  it('treats an unreadable value as open rather than failing', () => {
    expect(parseSidebarCookie('sidebar_state=')).toBe(true);
    expect(parseSidebarCookie('sidebar_state=%%%')).toBe(true);
    expect(parseSidebarCookie('xsidebar_state=false')).toBe(true);
  });
});
