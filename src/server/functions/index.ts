import type { EdgeFunctionDefinition } from './types';
import { vercelAnalyticsFunction } from './vercel-analytics';

/** Every edge function the gateway mounts under /functions/v1. */
export const edgeFunctions: EdgeFunctionDefinition[] = [vercelAnalyticsFunction];
