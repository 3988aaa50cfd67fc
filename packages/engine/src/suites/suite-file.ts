import { z } from 'zod';
import { isSvcError } from '../errors.js';
import { createLineLocator } from '../model/locate-json-path.js';
import { parseFlowText } from '../model/parse-flow-text.js';
import type { ValidationProblem } from '../model/validate-flow.js';
import { formatJsonPath } from '../model/walk-strings.js';
import { SUITE_MODES } from '../store/types.js';
import { flowFilePathProblem } from './flow-file-path.js';
import { MAX_SUITE_CONCURRENCY, MAX_SUITE_FLOWS } from './suite-schema.js';

export { MAX_FLOW_FILE_BYTES, MAX_SUITE_FILE_BYTES } from './flow-file-path.js';

/**
 * A flow file listed by a suite file: a relative path to a flow file (`flowFilePathProblem` says
 * which paths are refused and why).
 */
const flowFilePath = z
  .string()
  .min(1)
  .max(1024)
  .superRefine((path, context) => {
    const broken = flowFilePathProblem(path);
    if (broken !== undefined) context.addIssue({ code: 'custom', message: broken });
  });

/**
 * A suite kept in a repository (flows as code): its name, how it runs, and its flow files.
 * Unknown fields are refused, so that a misspelt `failfast` is an error rather than ignored.
 */
export const suiteFileSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    options: z
      .object({
        /** `sequential` (default) runs one flow after another; `parallel` runs several at a time. */
        mode: z.enum(SUITE_MODES).default('sequential'),
        /** Parallel suites: flows running at once (default 4). */
        concurrency: z.number().int().min(1).max(MAX_SUITE_CONCURRENCY).optional(),
        /** Start no flow after the first failure; the rest count as skipped. */
        failFast: z.boolean().optional(),
        /** A stored environment every flow runs on (`svc env set …`); `--env` values override it. */
        environment: z.string().trim().min(1).max(200).optional(),
      })
      .strict()
      .default({ mode: 'sequential' }),
    flows: z.array(flowFilePath).min(1).max(MAX_SUITE_FLOWS),
  })
  .strict();

export type SuiteFile = z.output<typeof suiteFileSchema>;

/** A problem of a file, where it is: the file, the line when known, the path in the document. */
export interface FileProblem extends ValidationProblem {
  file: string;
  /** 1-based; null when the problem is the file as a whole (it cannot be read, say). */
  line: number | null;
}

/** Puts `file` and the line of each problem's path on problems found in a file's text. */
export function locateProblems(text: string, file: string, problems: readonly ValidationProblem[]): FileProblem[] {
  const lineOf = createLineLocator(text);
  return problems.map((problem) => ({ ...problem, file, line: lineOf(problem.path) ?? null }));
}

function schemaProblems(error: z.ZodError): ValidationProblem[] {
  return error.issues.flatMap((issue): ValidationProblem[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          code: 'UNKNOWN_FIELD',
          message: `unknown field "${key}"`,
          path: formatJsonPath([...issue.path, key]),
        }))
      : [{ code: 'INVALID_FIELD', message: issue.message, path: formatJsonPath(issue.path) }],
  );
}

/** `at line 3, column 7` in a parser's message, when it says so. */
export function lineInMessage(message: string): number | null {
  const match = /\bline (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}

/**
 * Reads a suite file's text (YAML or JSON) and validates it: every problem with its file, line
 * and path. What the flow files hold is checked by whoever reads them (the file system is not
 * the engine's).
 * @example
 * const { suite, problems } = parseSuiteFile('name: smoke\nflows: [flows/health.yaml]\n', 'smoke.yaml');
 * suite?.options.mode; // 'sequential'
 */
export function parseSuiteFile(
  text: string,
  file: string,
): { suite: SuiteFile; problems: [] } | { suite: undefined; problems: FileProblem[] } {
  let value: unknown;
  try {
    // The flow files' reader: YAML or JSON, with the same limits on depth and aliases.
    value = parseFlowText(text, file);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    const message = error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message;
    return {
      suite: undefined,
      problems: [{ code: 'INVALID_SUITE_FILE', message, path: '', file, line: lineInMessage(message) }],
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      suite: undefined,
      problems: [
        {
          code: 'INVALID_SUITE_FILE',
          message: 'a suite file is an object with name, options and flows',
          path: '',
          file,
          line: 1,
        },
      ],
    };
  }
  const parsed = suiteFileSchema.safeParse(value);
  if (!parsed.success) return { suite: undefined, problems: locateProblems(text, file, schemaProblems(parsed.error)) };
  return { suite: parsed.data, problems: [] };
}
