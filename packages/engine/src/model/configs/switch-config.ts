import { z } from 'zod';
import { comparisonOperatorSchema, UNARY_OPERATORS } from '../operators.js';

/**
 * A case either compares a source with a value (`source`, `operator`, `value`) or, in
 * expression mode, runs a JavaScript boolean `expression` in the sandbox.
 */
export const switchCaseSchema = z
  .strictObject({
    label: z.string().optional(),
    source: z.string().optional(),
    operator: comparisonOperatorSchema.optional(),
    value: z.unknown().optional(),
    expression: z.string().min(1).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.expression !== undefined) {
      if (value.source !== undefined || value.operator !== undefined) {
        ctx.addIssue({ code: 'custom', message: 'a case has either an expression or source/operator/value, not both' });
      }
      return;
    }
    if (value.source === undefined) ctx.addIssue({ code: 'custom', path: ['source'], message: 'source is required' });
    if (value.operator === undefined) {
      ctx.addIssue({ code: 'custom', path: ['operator'], message: 'operator is required' });
    } else if (!UNARY_OPERATORS.has(value.operator) && value.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `operator ${value.operator} needs a value` });
    }
  });

export const switchConfigSchema = z
  .strictObject({
    mode: z.enum(['cases', 'expression']).default('cases'),
    cases: z.array(switchCaseSchema).min(1),
    /** Whether the `default` handle exists (taken when no case matches). */
    default: z.boolean().default(true),
  })
  .superRefine((value, ctx) => {
    if (value.mode !== 'expression') return;
    value.cases.forEach((entry, index) => {
      if (entry.expression === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['cases', index, 'expression'],
          message: 'expression mode needs an expression on every case',
        });
      }
    });
  });

export type SwitchCase = z.infer<typeof switchCaseSchema>;
export type SwitchConfig = z.infer<typeof switchConfigSchema>;
