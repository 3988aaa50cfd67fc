/** An endpoint node of a test flow. */
export const endpoint = (id: string, name: string, config: Record<string, unknown>) => ({
  id,
  name,
  type: 'endpoint',
  config,
});

/** A wire from `source`'s handle (default `out`) to `target`, with an id made of the three. */
export const wire = (source: string, target: string, sourceHandle = 'out') => ({
  id: `${source}-${sourceHandle}-${target}`,
  source,
  target,
  sourceHandle,
});
