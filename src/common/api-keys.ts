/**
 * Organization API keys (decision 0610): the org admin's key screen and the
 * /functions/v1/api-keys endpoint share these shapes; the server validates every body with
 * the same schema the form shows its message from.
 */
import { z } from 'zod';

export const newApiKeySchema = z.object({
  name: z
    .string({ error: 'Name the key, for example "Registrar sync".' })
    .trim()
    .min(1, 'Name the key, for example "Registrar sync".')
    .max(80, 'At most 80 characters.'),
});
export type NewApiKey = z.infer<typeof newApiKeySchema>;

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's last characters, to tell keys apart. */
  hint: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  createdBy: z.string().nullable().meta({ description: 'Name of the admin who created it' }),
  lastUsedAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .meta({ description: 'Last request made with it, to the minute' }),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createdApiKeySchema = z.object({
  key: apiKeySchema,
  /** The key itself: shown once, never stored by the server (only its SHA-256). */
  secret: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
