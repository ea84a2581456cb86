/**
 * The OpenAPI 3.1 document of the public API (decision 0611), generated on the server from the
 * operations' definitions: REST tables and procedures from the database catalogue (the
 * columns, types and arguments PostgREST-style requests are checked against), edge functions
 * from the zod schemas their handlers validate with.
 */
import { z } from 'zod';
import { brand } from '../../common/brand';
import type { Queryable } from '../db/types';
import { examplesFor } from './examples';
import {
  functionOperations,
  rpcOperations,
  tableOperations,
  tags,
  type FunctionOperation,
  type TableOperations,
} from './operations';

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  nullable: boolean;
  has_default: boolean;
  generated: boolean;
}

interface ProcedureRow {
  name: string;
  arg_names: string[];
  arg_types: string[];
  defaults: number;
}

const scalarTypes: Record<string, Json> = {
  uuid: { type: 'string', format: 'uuid' },
  text: { type: 'string' },
  'character varying': { type: 'string' },
  citext: { type: 'string' },
  smallint: { type: 'integer' },
  integer: { type: 'integer' },
  bigint: { type: 'integer', format: 'int64' },
  numeric: { type: 'number' },
  real: { type: 'number' },
  'double precision': { type: 'number' },
  boolean: { type: 'boolean' },
  'timestamp with time zone': { type: 'string', format: 'date-time' },
  'timestamp without time zone': { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  inet: { type: 'string' },
  jsonb: { description: 'Any JSON value' },
  json: { description: 'Any JSON value' },
};

const arrayItems: Record<string, string> = {
  _text: 'text',
  _uuid: 'uuid',
  _int4: 'integer',
  _int8: 'bigint',
};

/** A column's or argument's PostgreSQL type as JSON Schema. */
function pgType(dataType: string, udtName = '', nullable = false): Json {
  let schema: Json;
  if (dataType === 'ARRAY' || dataType.endsWith('[]')) {
    const item = arrayItems[udtName] ?? dataType.replace(/\[\]$/, '');
    schema = { type: 'array', items: scalarTypes[item] ?? { type: 'string' } };
  } else {
    schema = { ...(scalarTypes[dataType] ?? { type: 'string' }) };
  }
  if (nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const commonErrors = {
  '400': ref('BadRequest'),
  '401': ref('Unauthorized'),
  '403': ref('Forbidden'),
  '429': ref('TooManyRequests'),
};

function rowSchema(columns: ColumnRow[], purpose: 'read' | 'insert' | 'update'): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const column of columns) {
    if (purpose !== 'read' && column.generated) continue;
    properties[column.column_name] = pgType(column.data_type, column.udt_name, column.nullable);
    const mandatory = !column.nullable && !column.has_default;
    if (purpose === 'read' || (purpose === 'insert' && mandatory))
      required.push(column.column_name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function filterParameters(columns: ColumnRow[]): Json[] {
  return columns.map((column) => ({
    name: column.column_name,
    in: 'query',
    required: false,
    description: `Filter on \`${column.column_name}\`: \`operator.value\`, e.g. \`eq.…\`, \`in.(…)\`, \`is.null\``,
    schema: { type: 'string' },
  }));
}

const readParameters: Json[] = [
  {
    name: 'select',
    in: 'query',
    description: 'Columns to return, comma-separated; `*` for all',
    schema: { type: 'string' },
    example: '*',
  },
  {
    name: 'order',
    in: 'query',
    description: '`column.asc` or `column.desc`, comma-separated',
    schema: { type: 'string' },
  },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  {
    name: 'Prefer',
    in: 'header',
    description: '`count=exact` to get the total in `Content-Range`',
    schema: { type: 'string' },
  },
  {
    name: 'Range',
    in: 'header',
    description: 'Rows `from-to` (zero-based, inclusive), instead of limit and offset',
    schema: { type: 'string' },
    example: '0-99',
  },
];

const preferReturn: Json = {
  name: 'Prefer',
  in: 'header',
  description: '`return=representation` to get the written rows back',
  schema: { type: 'string' },
};

function tablePaths(operations: TableOperations, columns: ColumnRow[]): Json {
  const { table, tag, description, methods } = operations;
  const rows = { type: 'array', items: { $ref: `#/components/schemas/${table}` } };
  const written = {
    description: 'Written; the rows with `Prefer: return=representation`',
    content: { 'application/json': { schema: rows } },
  };
  const item: Json = {};
  const base = (method: string, summary: string) => ({
    operationId: `${method}_${table}`,
    tags: [tag],
    summary,
    description,
    ...examplesFor(`${method} /rest/v1/${table}`),
  });
  if (methods.get)
    item.get = {
      ...base('get', methods.get),
      parameters: [...readParameters, ...filterParameters(columns)],
      responses: {
        '200': { description: 'The rows', content: { 'application/json': { schema: rows } } },
        '206': {
          description: 'A range of the rows (`Content-Range` says which)',
          content: { 'application/json': { schema: rows } },
        },
        ...commonErrors,
      },
    };
  if (methods.post)
    item.post = {
      ...base('post', methods.post),
      parameters: [preferReturn],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              oneOf: [
                rowSchema(columns, 'insert'),
                { type: 'array', items: rowSchema(columns, 'insert') },
              ],
            },
          },
        },
      },
      responses: { '201': written, '409': ref('Conflict'), ...commonErrors },
    };
  if (methods.patch)
    item.patch = {
      ...base('patch', methods.patch),
      parameters: [preferReturn, ...filterParameters(columns)],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: rowSchema(columns, 'update') } },
      },
      responses: {
        '200': written,
        '204': { description: 'Updated (no body asked for)' },
        ...commonErrors,
      },
    };
  if (methods.delete)
    item.delete = {
      ...base('delete', methods.delete),
      parameters: [preferReturn, ...filterParameters(columns)],
      responses: {
        '200': written,
        '204': { description: 'Deleted (no body asked for)' },
        ...commonErrors,
      },
    };
  return item;
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'org' ? 'The organization’s id' : 'The member’s user id',
    schema: { type: 'string', format: 'uuid' },
  }));
}

function queryParameters(query: z.ZodObject | undefined): Json[] {
  if (!query) return [];
  const schema = jsonSchema(query, 'input') as { properties?: Record<string, Json> };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

function functionOperation(operation: FunctionOperation): Json {
  const { response } = operation;
  const responseSchema = jsonSchema(response.schema, 'output');
  const content = Object.fromEntries(
    (response.mediaTypes ?? ['application/json']).map((type) => [
      type,
      { schema: type === 'application/json' ? responseSchema : { type: 'string' } },
    ]),
  );
  let requestBody: Json | undefined;
  if (operation.body)
    requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
    };
  else if (operation.rawBody)
    requestBody = {
      required: true,
      description: operation.rawBody.description,
      content: { [operation.rawBody.mediaType]: { schema: { type: 'string' } } },
    };
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    parameters: [...pathParameters(operation.path), ...queryParameters(operation.query)],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(response.status)]: { description: 'Done', content },
      ...commonErrors,
      '404': ref('FunctionNotFound'),
    },
    ...examplesFor(`${operation.method} ${operation.path}`),
  };
}

const restError = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'A PostgreSQL SQLSTATE or a PGRST code' },
    message: { type: 'string' },
    details: { type: ['string', 'null'] },
    hint: { type: ['string', 'null'] },
  },
  required: ['code', 'message'],
};
const functionError = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    error: { type: 'string', description: 'What was wrong (some functions say `message`)' },
    message: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['code'],
};
const errorContent = { 'application/json': { schema: { oneOf: [restError, functionError] } } };

const components = {
  securitySchemes: {
    apikey: {
      type: 'apiKey',
      in: 'header',
      name: 'apikey',
      description: 'The organization API key (or the service role key), sent in `apikey`…',
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: '…and again as the bearer token.',
    },
  },
  responses: {
    BadRequest: {
      description: 'The request is malformed; nothing was changed',
      content: errorContent,
    },
    Unauthorized: {
      description: 'No key, or a key that is revoked, altered or not from this deployment',
      content: errorContent,
    },
    Forbidden: {
      description: 'Row-level security or the procedure refused: not this organization’s',
      content: errorContent,
    },
    Conflict: {
      description: 'Duplicate, or a reference to a row that does not exist',
      content: errorContent,
    },
    FunctionNotFound: {
      description: 'No such organization, member or route',
      content: errorContent,
    },
    TooManyRequests: {
      description: 'More than the key’s requests per second; nothing was done',
      headers: {
        'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
      },
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              statusCode: { type: 'string' },
              code: { const: 'over_request_rate_limit' },
              error: { type: 'string' },
              message: { type: 'string' },
            },
            required: ['code', 'message'],
          },
        },
      },
    },
  },
};

const description = `The ${brand.product} API for an institution's systems: its users, enrolments, progress, quiz results and exports, under the organization's row-level security.

**Keys.** An organization's owner or org admin creates an **organization API key** on *Organization → API keys* in the app. It is shown once; send it as \`apikey\` and as \`Authorization: Bearer\`. It acts as an administrator of that one organization: another organization's rows are invisible to it and every write with their ids is refused. Revoking it stops it at once. The deployment's **service role key** stays for the platform's own server-to-server administration; never put either in client code.

**Limits.** Each key may make ${'{limit}'} requests per second; above that the API answers \`429\` with \`Retry-After\`.

**Conventions.** \`/rest/v1\` follows PostgREST (filters \`column=operator.value\`, \`select\`, \`order\`, \`limit\`, \`offset\`, \`Prefer\`); \`/functions/v1\` are the product's functions.`;

/** Builds the document from the catalogue; `limit` is the configured requests per second. */
export async function buildOpenApiDocument(
  db: Queryable,
  options: { version: string; limitPerSecond: number },
): Promise<Json> {
  const tables = tableOperations.map((t) => t.table);
  const { rows: columns } = await db.query<ColumnRow & Record<string, unknown>>(
    `select c.table_name::text, c.column_name::text, c.data_type::text, c.udt_name::text,
            c.is_nullable = 'YES' as nullable,
            c.column_default is not null or c.is_identity = 'YES' as has_default,
            c.is_generated = 'ALWAYS' as generated
       from information_schema.columns c
      where c.table_schema = 'public' and c.table_name = any($1::text[])
      order by c.table_name, c.ordinal_position`,
    [tables],
  );
  const { rows: procedures } = await db.query<ProcedureRow & Record<string, unknown>>(
    `select p.proname::text as name, coalesce(p.proargnames, '{}')::text[] as arg_names,
            array(select format_type(t, null) from unnest(p.proargtypes::oid[]) t) as arg_types,
            p.pronargdefaults::int as defaults
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.proname = any($1::text[])`,
    [rpcOperations.map((r) => r.name)],
  );

  const byTable = new Map<string, ColumnRow[]>();
  for (const column of columns) {
    const list = byTable.get(column.table_name) ?? [];
    list.push(column);
    byTable.set(column.table_name, list);
  }
  const paths: Json = {};
  const schemas: Json = {};
  for (const operations of tableOperations) {
    const tableColumns = byTable.get(operations.table);
    if (!tableColumns) throw new Error(`The public API names a missing table: ${operations.table}`);
    schemas[operations.table] = rowSchema(tableColumns, 'read');
    paths[`/rest/v1/${operations.table}`] = tablePaths(operations, tableColumns);
  }
  for (const rpc of rpcOperations) {
    const procedure = procedures.find((p) => p.name === rpc.name);
    if (!procedure) throw new Error(`The public API names a missing procedure: ${rpc.name}`);
    const required = procedure.arg_names.slice(0, procedure.arg_names.length - procedure.defaults);
    paths[`/rest/v1/rpc/${rpc.name}`] = {
      post: {
        operationId: rpc.name,
        tags: [rpc.tag],
        summary: rpc.summary,
        description: rpc.description,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(
                  procedure.arg_names.map((name, i) => [name, pgType(procedure.arg_types[i]!)]),
                ),
                required,
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The result',
            content: { 'application/json': { schema: jsonSchema(rpc.returns, 'output') } },
          },
          ...commonErrors,
        },
        ...examplesFor(`post /rest/v1/rpc/${rpc.name}`),
      },
    };
  }
  for (const operation of functionOperations) {
    const item = (paths[operation.path] ?? {}) as Json;
    item[operation.method] = functionOperation(operation);
    paths[operation.path] = item;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: `${brand.product} public API`,
      version: options.version,
      description: description.replace('{limit}', String(options.limitPerSecond)),
      contact: { email: brand.supportEmail },
    },
    tags,
    security: [{ apikey: [], bearer: [] }],
    paths,
    components: { ...components, schemas },
  };
}
