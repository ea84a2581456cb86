/**
 * The public API's pages the gateway serves itself, outside the web app's router and bundle:
 * the OpenAPI document (decision 0611) and its reference page (decision 0612). Links to them
 * load a new document; documentation checks accept them beside the route table's paths.
 */
export const publicApiPaths = {
  document: '/api/openapi.json',
  reference: '/api/reference',
} as const;

export function isPublicApiPath(path: string): boolean {
  return Object.values<string>(publicApiPaths).includes(path);
}
