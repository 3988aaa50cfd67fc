import { z } from 'zod';

/**
 * Wire schemas of the catalog doors: the gateway validates REST bodies and queries with them and
 * the MCP tools take them as input, so both say the same about what is accepted.
 */

/** Large public specs (Stripe, GitHub) run to several megabytes of JSON. */
export const MAX_OPENAPI_DOCUMENT_CHARS = 8 * 1024 * 1024;

export const importOpenApiBodySchema = z
  .object({
    document: z
      .string()
      .min(1)
      .max(MAX_OPENAPI_DOCUMENT_CHARS)
      .describe('The OpenAPI 3.0/3.1 or Swagger 2.0 document as text, JSON or YAML'),
    name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "The spec's name in the catalog (default: info.title). Importing the same name again replaces that spec",
      ),
    fileName: z.string().min(1).max(500).optional().describe('Where the document came from, shown in error messages'),
  })
  .strict();

export const listEndpointsQuerySchema = z.object({
  search: z
    .string()
    .max(200)
    .optional()
    .describe('Case-insensitive text to find in endpoint ids, "METHOD /path", summaries and tags, e.g. "playlist"'),
  specId: z.string().min(1).max(128).optional().describe('Only endpoints of this spec'),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).max(512).optional(),
});

export type ImportOpenApiBody = z.infer<typeof importOpenApiBodySchema>;
export type ListEndpointsQueryInput = z.infer<typeof listEndpointsQuerySchema>;
