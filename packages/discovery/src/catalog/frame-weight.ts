import { keyWeight, type Weigher } from './bound-schemas.js';
import type { EndpointParameter, EndpointRequestBody, EndpointResponse } from './types.js';

/**
 * What the parts of an endpoint other than its schemas weigh once written out (`weightOf`), each
 * schema counted at the least it can be cut to. These parts are never cut, and references share
 * them between operations (a list of parameters, a map of responses, the document's servers and
 * security apply to every operation), so the document's cap is checked on them before an
 * endpoint is built. Weights are memoised per part, so a part that thousands of operations share
 * is weighed once.
 */
export interface FrameWeights {
  /** One operation's or path item's parameters, as `parametersOf` builds them. */
  parameters(list: readonly EndpointParameter[]): number;
  requestBody(body: EndpointRequestBody | null): number;
  responses(responses: Readonly<Record<string, EndpointResponse>>): number;
  /** Tags, servers, security, security schemes: kept as they are. */
  plain(value: unknown): number;
}

export function createFrameWeights(weigher: Weigher): FrameWeights {
  const partMemo = new WeakMap<object, number>();
  const plain = weigher.weight;
  const leastWeightOf = weigher.least;
  const memoised = <T extends object>(part: T, weigh: (part: T) => number): number => {
    const known = partMemo.get(part);
    if (known !== undefined) return known;
    const weight = weigh(part);
    partMemo.set(part, weight);
    return weight;
  };
  return {
    plain,
    parameters: (list) =>
      memoised(list, () =>
        list.reduce(
          (sum, parameter) =>
            sum +
            // The object, its name, `in`, `required`, the description when there is one, the schema.
            3 +
            plain(parameter.name) +
            plain(parameter.description) +
            leastWeightOf(parameter.schema),
          1,
        ),
      ),
    requestBody: (body) =>
      body === null ? 1 : memoised(body, () => 2 + plain(body.contentType) + leastWeightOf(body.schema)),
    responses: (responses) =>
      memoised(responses, () =>
        Object.entries(responses).reduce(
          (sum, [status, response]) =>
            sum +
            keyWeight(status) +
            1 +
            plain(response.description) +
            plain(response.contentType) +
            leastWeightOf(response.schema),
          1,
        ),
      ),
  };
}
