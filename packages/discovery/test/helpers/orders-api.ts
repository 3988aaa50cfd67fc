import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GOOD_BEARER_TOKEN = 'good-token';
export const GOOD_API_KEY = 'good-key';

export interface OrdersApiOptions {
  /**
   * A careless implementation: it takes an order without a customerId and lets anyone in. The
   * tests generated from the spec must catch both.
   */
  lax?: boolean;
}

export interface OrdersApi {
  url: string;
  /** `METHOD path?query → status`, one line per request. */
  log: string[];
  close(): Promise<void>;
}

type Answer = [number, unknown];

const ENUM_CURRENCY = ['EUR', 'USD', 'GBP'];
const ENUM_STATUS = ['created', 'paid', 'shipped'];

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
const invalid = (message: string): Answer => [400, { code: 'INVALID_REQUEST', message }];

/** `limit` as the spec reads it: a whole number written in decimal. */
function integerParam(text: string | null): number | undefined {
  return text !== null && /^-?\d+$/.test(text) ? Number(text) : undefined;
}

function validateOrder(body: unknown, lax: boolean): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be an object';
  const order = body as Record<string, unknown>;
  if (!('customerId' in order)) {
    if (!lax) return 'customerId is required';
  } else if (typeof order.customerId !== 'string' || order.customerId.length < 3 || order.customerId.length > 20) {
    return 'customerId must be a string of 3 to 20 characters';
  }
  if (typeof order.currency !== 'string' || !ENUM_CURRENCY.includes(order.currency))
    return 'currency must be EUR, USD or GBP';
  if (!Array.isArray(order.items) || order.items.length < 1 || order.items.length > 3)
    return 'items must hold 1 to 3 line items';
  for (const item of order.items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'a line item must be an object';
    const line = item as Record<string, unknown>;
    if (typeof line.sku !== 'string' || line.sku.length < 1) return 'sku is required';
    if (!isInteger(line.quantity) || line.quantity < 1 || line.quantity > 100)
      return 'quantity must be a whole number from 1 to 100';
  }
  if ('note' in order && (typeof order.note !== 'string' || order.note.length > 40))
    return 'note must be a string of at most 40 characters';
  if ('express' in order && typeof order.express !== 'boolean') return 'express must be a boolean';
  if ('discount' in order && (typeof order.discount !== 'number' || order.discount < 0 || order.discount >= 50))
    return 'discount must be a number from 0 up to 50';
  return undefined;
}

/**
 * The API of `fixtures/orders-testgen.openapi.yaml` on a free local port, implemented as the
 * spec says: required fields, types, enums, bounds and credentials are checked, and each answer
 * is one the spec declares.
 */
export async function startOrdersApi(options: OrdersApiOptions = {}): Promise<OrdersApi> {
  const lax = options.lax === true;
  const log: string[] = [];

  const handle = (request: IncomingMessage, url: URL, text: string): Answer => {
    const method = request.method ?? 'GET';
    const bearerOk = lax || request.headers.authorization === `Bearer ${GOOD_BEARER_TOKEN}`;
    if (method === 'GET' && url.pathname === '/health') return [200, { status: 'ok' }];

    if (url.pathname === '/orders' && method === 'POST') {
      if (!bearerOk) return [401, { code: 'UNAUTHORIZED', message: 'a bearer token is required' }];
      const requestId = request.headers['x-request-id'];
      if (typeof requestId !== 'string' || requestId.length < 8 || requestId.length > 64)
        return invalid('X-Request-Id must hold 8 to 64 characters');
      const dryRun = url.searchParams.get('dryRun');
      if (dryRun !== null && dryRun !== 'true' && dryRun !== 'false') return invalid('dryRun must be true or false');
      if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) return invalid('the body must be JSON');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return invalid('the body is not valid JSON');
      }
      const problem = validateOrder(body, lax);
      if (problem !== undefined) return invalid(problem);
      const order = body as { customerId?: string; currency: string; items: Array<{ quantity: number }> };
      const total = order.items.reduce((sum, item) => sum + item.quantity * 10, 0);
      return [
        201,
        { id: 'ord_1', status: 'created', customerId: order.customerId ?? '', currency: order.currency, total },
      ];
    }

    if (url.pathname === '/orders' && method === 'GET') {
      if (!bearerOk) return [401, { code: 'UNAUTHORIZED', message: 'a bearer token is required' }];
      const limit = integerParam(url.searchParams.get('limit'));
      if (limit === undefined || limit < 1 || limit > 50) return invalid('limit must be a whole number from 1 to 50');
      const status = url.searchParams.get('status');
      if (status !== null && !ENUM_STATUS.includes(status)) return invalid('status must be created, paid or shipped');
      return [200, { items: [], total: 0 }];
    }

    const match = /^\/orders\/([^/]+)$/.exec(url.pathname);
    if (match !== null && method === 'GET') {
      if (!lax && request.headers['x-api-key'] !== GOOD_API_KEY)
        return [403, { code: 'FORBIDDEN', message: 'an API key is required' }];
      const id = integerParam(decodeURIComponent(match[1]!));
      if (id === undefined || id < 1 || id > 999_999) return invalid('orderId must be a whole number from 1 to 999999');
      return [200, { id: `ord_${id}`, status: 'created', customerId: 'cus_123', currency: 'EUR', total: 10 }];
    }
    return [404, { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` }];
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const [status, body] = handle(request, url, Buffer.concat(chunks).toString('utf8'));
      log.push(`${request.method} ${url.pathname}${url.search} → ${status}`);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
