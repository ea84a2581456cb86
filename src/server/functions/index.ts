import { adaptFunction } from './adapt';
import { adaptOutputsFunction } from './adapt-outputs';
import { aiStudyChatFunction } from './ai-study-chat';
import { checkSubscriptionFunction } from './check-subscription';
import { createCheckoutFunction } from './create-checkout';
import { apiKeysFunction } from './api-keys';
import { auditLogExportFunction } from './audit-log-export';
import { dataRoomFunction } from './data-room';
import { dataRoomAccessFunction } from './data-room-access';
import { coachDemoFunction } from './coach-demo';
import { coachEvaluateFunction } from './coach-evaluate';
import { flashcardsFunction } from './flashcards';
import { healthFunction } from './health';
import { iepFunction } from './iep';
import { libraryFunction } from './library';
import { orgExportFunction } from './org-export';
import { orgPeopleFunction } from './org-people';
import { orgSsoFunction } from './org-sso';
import { privacyFunction } from './privacy';
import { simpleAiChatFunction } from './simple-ai-chat';
import { stripeWebhookFunction } from './stripe-webhook';
import { submitQuizFunction } from './submit-quiz';
import type { EdgeFunctionDefinition } from './types';
import { vercelAnalyticsFunction } from './vercel-analytics';

/** Every edge function the gateway mounts under /functions/v1. */
export const edgeFunctions: EdgeFunctionDefinition[] = [
  healthFunction,
  vercelAnalyticsFunction,
  dataRoomAccessFunction,
  dataRoomFunction,
  orgPeopleFunction,
  coachEvaluateFunction,
  simpleAiChatFunction,
  flashcardsFunction,
  aiStudyChatFunction,
  libraryFunction,
  createCheckoutFunction,
  checkSubscriptionFunction,
  stripeWebhookFunction,
  apiKeysFunction,
  adaptFunction,
  orgExportFunction,
  adaptOutputsFunction,
  privacyFunction,
  submitQuizFunction,
  orgSsoFunction,
  iepFunction,
  auditLogExportFunction,
  coachDemoFunction,
];
