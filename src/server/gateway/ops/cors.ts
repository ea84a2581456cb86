import { cors } from 'hono/cors';

/** The request headers supabase-js sends (wire contract §0), so browsers may call us cross-origin. */
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
  'if-none-match',
  'x-region',
];

export const corsExposeHeaders = [
  'Content-Range',
  'X-Supabase-Api-Version',
  'Content-Length',
  'Content-Type',
  'Content-Disposition',
  'ETag',
  'Retry-After',
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
