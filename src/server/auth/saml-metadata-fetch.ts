/**
 * Fetching an IdP's metadata from the URL an administrator gave. The server makes this request,
 * so it is guarded like webhook deliveries (decision 0514): HTTPS only, and every address the
 * host resolves to must be public, unless the operator allow-listed the host
 * (SAML_METADATA_ALLOWED_TARGETS, e.g. an IdP on the internal network); the request then
 * connects to the checked address, so a DNS answer that changes in between cannot slip through.
 */
import http from 'node:http';
import https from 'node:https';
import { firstNonPublic, hostAddresses, isAllowListed, pinnedLookup } from '../net/target-guard';
import { MAX_SAML_XML_BYTES } from './saml';

export class MetadataFetchError extends Error {
  constructor(
    message: string,
    /** A refusal of the URL itself (validation) rather than a failed fetch. */
    public readonly refused = false,
  ) {
    super(message);
    this.name = 'MetadataFetchError';
  }
}

const TIMEOUT_MS = 10_000;

export async function fetchSamlMetadata(
  address: string,
  allowed: readonly string[],
): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new MetadataFetchError('metadata_url is not a valid URL', true);
  }
  const allowListed = isAllowListed(url, allowed);
  if (url.protocol !== 'https:' && !(allowListed && url.protocol === 'http:')) {
    throw new MetadataFetchError('metadata_url is not a HTTPS URL', true);
  }
  if (url.username || url.password) {
    throw new MetadataFetchError('metadata_url may not contain a user name or password', true);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await hostAddresses(host);
  } catch {
    throw new MetadataFetchError(`The host ${host} of metadata_url could not be resolved`);
  }
  if (addresses.length === 0) throw new MetadataFetchError(`The host ${host} has no address`);
  const refused = allowListed ? undefined : firstNonPublic(addresses);
  if (refused) {
    throw new MetadataFetchError(
      `metadata_url's host ${host} resolves to ${refused.ip}, a ${refused.kind} address: metadata is fetched only from public addresses unless the operator allow-lists the host (SAML_METADATA_ALLOWED_TARGETS)`,
      true,
    );
  }
  const lookup = pinnedLookup(addresses[0]!);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<string>((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'GET',
        lookup,
        timeout: TIMEOUT_MS,
        headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(
            new MetadataFetchError(
              `HTTP ${res.statusCode} error fetching SAML Metadata from URL '${address}'`,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_SAML_XML_BYTES) {
            req.destroy();
            reject(
              new MetadataFetchError(
                `The SAML Metadata at '${address}' is larger than ${MAX_SAML_XML_BYTES / 1024} KB`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', (error) =>
          reject(new MetadataFetchError(`Reading SAML Metadata failed: ${error.message}`)),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) =>
      reject(
        new MetadataFetchError(
          `SAML Metadata could not be fetched from '${address}': ${error.message}`,
        ),
      ),
    );
    req.end();
  });
}
