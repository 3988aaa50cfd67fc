import { z } from 'zod';

/** Sets flow variables (`flowVars.<name>`); values may be literals or `{{…}}` templates. */
export const variablesConfigSchema = z.strictObject({
  set: z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'variable names must be identifiers' }),
    z.unknown(),
  ),
});

export type VariablesConfig = z.infer<typeof variablesConfigSchema>;
