import { parseTemplate, type FlowDocument } from '@svc/engine';

/** An `{{env.<name>}}` a flow reads: what a run's environment has to carry. */
export interface RunEnvVariable {
  name: string;
  /** Where it is read, e.g. `GetCurrentUsersProfile header Authorization`. */
  usedBy: string[];
  /** The literal after `??` where every use has one (the spec's server URL for `baseUrl`). */
  default?: unknown;
  /** A use without a `??` default and not marked optional: a run without it fails that step. */
  required: boolean;
}

/** A flow input: given with the run's inputs, else its default from `variables`. */
export interface RunInput {
  name: string;
  type: string;
  /** True when a run without it is refused (`INVALID_INPUTS`): required and no default. */
  required: boolean;
  default?: unknown;
  description?: string;
}

export interface RunNeeds {
  env: RunEnvVariable[];
  inputs: RunInput[];
}

function where(nodeName: string, path: readonly string[]): string {
  const [place, ...rest] = path;
  if (place === 'url') return `${nodeName} url`;
  if (place === 'headers' || place === 'query')
    return `${nodeName} ${place === 'headers' ? 'header' : 'query'} ${rest.join('.')}`;
  if (place === 'body') return `${nodeName} body${rest.length > 0 ? ` ${rest.join('.')}` : ''}`;
  return `${nodeName} ${path.join('.')}`;
}

/**
 * Every string in a config, in document order, with its path; its own stack, not recursion (a
 * config may nest deep), and a path built only for the strings (from links to the parent).
 */
function walkStrings(value: unknown, path: string[], visit: (text: string, path: string[]) => void): void {
  type Link = { parent: Link | undefined; key: string } | undefined;
  const stack: { value: unknown; link: Link }[] = [{ value, link: undefined }];
  while (stack.length > 0) {
    const { value: current, link } = stack.pop()!;
    if (typeof current === 'string') {
      const tail: string[] = [];
      for (let at = link; at !== undefined; at = at.parent) tail.push(at.key);
      visit(current, [...path, ...tail.reverse()]);
    } else if (typeof current === 'object' && current !== null) {
      const entries: [string, unknown][] = Array.isArray(current)
        ? current.map((item, index) => [String(index), item])
        : Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1)
        stack.push({ value: entries[index]![1], link: { parent: link, key: entries[index]![0] } });
    }
  }
}

/**
 * What a run of a flow needs: the env variables its templates read (through the parsed
 * expressions, so `{{env.baseUrl ?? "https://…"}}` is seen with its default) and its declared
 * inputs. A scaffolded flow reads `baseUrl` and credentials named after the spec's security
 * schemes (`oauth20Token`, `apiKey`…) from `env`.
 *
 * @example
 * describeRunNeeds(flow).env.map((variable) => variable.name); // ['baseUrl', 'oauth20Token']
 */
export function describeRunNeeds(flow: Pick<FlowDocument, 'nodes' | 'inputs' | 'variables'>): RunNeeds {
  const env = new Map<string, RunEnvVariable & { defaults: unknown[] }>();
  for (const node of flow.nodes) {
    walkStrings(node.config, [], (text, path) => {
      if (!text.includes('{{')) return;
      let template;
      try {
        template = parseTemplate(text);
      } catch {
        return; // A saved flow parses; a hand-edited one that does not has its own validation error.
      }
      for (const part of template.parts) {
        if (part.kind !== 'expression' || part.expression.root !== 'env') continue;
        const first = part.expression.segments[0];
        if (first?.kind !== 'key') continue;
        const entry = env.get(first.key) ?? { name: first.key, usedBy: [], required: false, defaults: [] };
        const use = where(node.name, path);
        if (!entry.usedBy.includes(use)) entry.usedBy.push(use);
        if (part.expression.fallback !== undefined) entry.defaults.push(part.expression.fallback.value);
        else if (!part.expression.optional) entry.required = true;
        env.set(first.key, entry);
      }
    });
  }
  const variables = flow.variables ?? {};
  const inputs: RunInput[] = Object.entries(flow.inputs ?? {}).map(([name, declaration]) => {
    const fallback =
      declaration.default !== undefined
        ? declaration.default
        : Object.hasOwn(variables, name)
          ? variables[name]
          : undefined;
    return {
      name,
      type: declaration.type,
      // The engine fills a missing input from its declared default only (not from `variables`).
      required: declaration.required && declaration.default === undefined,
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(declaration.description !== undefined ? { description: declaration.description } : {}),
    };
  });
  return {
    env: [...env.values()].map(({ defaults, ...variable }) => ({
      ...variable,
      ...(!variable.required && defaults.length > 0 ? { default: defaults[0] } : {}),
    })),
    inputs,
  };
}
