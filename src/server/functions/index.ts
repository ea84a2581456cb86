import type { EdgeFunctionDefinition } from './types';

/** Every edge function the gateway mounts under /functions/v1. */
export const edgeFunctions: EdgeFunctionDefinition[] = [];
