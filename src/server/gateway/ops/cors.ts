import { cors } from 'hono/cors';

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

export function apiCors() {
  return cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: corsAllowHeaders,
    exposeHeaders: corsExposeHeaders,
    maxAge: 86400,
  });
}
