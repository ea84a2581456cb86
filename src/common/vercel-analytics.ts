/**
 * What the vercel-analytics function answers and the deployment panel reads: the server
 * narrows Vercel's REST responses to these shapes, the browser renders them.
 */

export interface VercelProject {
  id: string;
  name: string;
  framework: string | null;
  updatedAt: number | null;
}

export interface VercelDeployment {
  id: string;
  uid: string;
  name: string;
  url: string | null;
  state: string;
  /** Creation time in epoch milliseconds, as Vercel reports it. */
  created: number;
}

export interface VercelAnalytics {
  /** Vercel's API has no request or bandwidth totals, so these stay null rather than made up. */
  requests: number | null;
  bandwidth: number | null;
  visitors: number;
  pageViews: number;
  /** The period the counts cover, ending now. */
  windowHours: number;
}
