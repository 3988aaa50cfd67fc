import type { EndpointConfig } from '@svc/engine';
import type { CatalogEndpoint } from '../catalog/types.js';

type Assertion = EndpointConfig['assertions'][number];

/**
 * The statusCode assertions that make a step fail when its endpoint does not answer the success
 * the spec declares: `== 201` when it declares exactly one 2xx status, otherwise any 2xx
 * (several 2xx statuses, a `2XX` range, or no success declared at all). A failing step stops the
 * run, so a broken chain shows at the step that broke it.
 *
 * @example
 * successAssertions({ responses: { '201': …, '400': … } }) // [{ target: 'statusCode', operator: '==', value: 201, … }]
 */
export function successAssertions(endpoint: Pick<CatalogEndpoint, 'responses'>): Assertion[] {
  const declared = Object.keys(endpoint.responses)
    .filter((status) => /^2\d\d$/.test(status))
    .map(Number);
  if (declared.length === 1) {
    return [
      {
        target: 'statusCode',
        operator: '==',
        value: declared[0],
        description: `the spec's success status ${declared[0]}`,
      },
    ];
  }
  const description =
    declared.length > 1 ? `one of the spec's success statuses ${declared.join(', ')}` : 'a 2xx success status';
  return [
    { target: 'statusCode', operator: '>=', value: 200, description },
    { target: 'statusCode', operator: '<', value: 300, description },
  ];
}
