import { createMiddleware } from 'hono/factory';
import { setResponseHeader } from './response-headers';

/**
 * The request headers supabase-js sends to any of the API services (wire contract §0), so
 * browsers may call us cross-origin. One list for REST, storage, functions and auth.
 */
export const corsAllowHeaders = [
  'authorization',
  'apikey',
  'x-client-info',
  'content-type',
  'x-supabase-api-version',
  'accept-profile',
  'content-profile',
  'prefer',
  'x-retry-count',
  'x-upsert',
  'cache-control',
  'x-metadata',
  'range',
  'range-unit',
  'if-none-match',
  'x-region',
];

/** The response headers supabase-js reads (REST's counts and ranges, storage's downloads, limits). */
export const corsExposeHeaders = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'Content-Length',
  'Content-Type',
  'Content-Disposition',
  'ETag',
  'Retry-After',
  'Location',
  'Preference-Applied',
  'Range-Unit',
];

const allowMethods = 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS';
const MAX_AGE_SECONDS = '86400';

/**
 * CORS for any origin. Preflights are answered here; other responses get the headers after the
 * service answered, in place (`hono/cors` sets them on a placeholder response first, which
 * makes Hono rebuild every response around a body stream: see decision 0012).
 */
export function apiCors() {
  const expose = corsExposeHeaders.join(',');
  const allow = corsAllowHeaders.join(',');
  return createMiddleware(async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': expose,
        'Access-Control-Allow-Methods': allowMethods,
        'Access-Control-Allow-Headers': allow,
        'Access-Control-Max-Age': MAX_AGE_SECONDS,
      });
    }
    await next();
    setResponseHeader(c, 'Access-Control-Allow-Origin', '*');
    setResponseHeader(c, 'Access-Control-Expose-Headers', expose);
  });
}
