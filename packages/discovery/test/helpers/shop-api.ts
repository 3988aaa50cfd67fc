import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the shop answered, as it arrived. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
  status: number;
}

export interface ShopApi {
  url: string;
  seen: SeenRequest[];
  /** Ids the shop handed out, in order. */
  created: { customers: number[]; orders: number[]; shipments: string[] };
  close(): Promise<void>;
}

interface Order {
  id: number;
  customerId: number;
  status: 'pending' | 'shipped';
  items: Array<{ sku: string; quantity: number }>;
}

/**
 * The shop of `fixtures/shop.openapi.yaml` on a free local port: it checks the credentials each
 * operation's security names, and that the ids a request carries are ones it created (and are
 * numbers where the spec says integer).
 */
export async function startShopApi(options: { bearerToken: string; warehouseKey: string }): Promise<ShopApi> {
  const customers = new Map<number, { id: number; name: string; email: string }>();
  const orders = new Map<number, Order>();
  const seen: SeenRequest[] = [];
  const created: ShopApi['created'] = { customers: [], orders: [], shipments: [] };
  let nextCustomer = 41;
  let nextOrder = 900;

  const handle = (
    method: string,
    path: string,
    query: URLSearchParams,
    headers: IncomingMessage['headers'],
    body: unknown,
  ): [number, unknown] => {
    const bearer = headers.authorization === `Bearer ${options.bearerToken}`;
    const object = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (method === 'POST' && path === '/customers') {
      if (!bearer) return [401, { error: 'bearer token required' }];
      if (typeof object.name !== 'string' || typeof object.email !== 'string' || !object.email.includes('@'))
        return [400, { error: 'name and email required' }];
      const customer = { id: nextCustomer++, name: object.name, email: object.email };
      customers.set(customer.id, customer);
      created.customers.push(customer.id);
      return [201, customer];
    }
    if (method === 'POST' && path === '/orders') {
      if (!bearer) return [401, { error: 'bearer token required' }];
      if (typeof object.customerId !== 'number')
        return [400, { error: `customerId must be an integer, got ${JSON.stringify(object.customerId)}` }];
      if (!customers.has(object.customerId)) return [404, { error: `no customer ${object.customerId}` }];
      const items = object.items;
      if (!Array.isArray(items) || items.length === 0) return [400, { error: 'items required' }];
      for (const item of items as Array<Record<string, unknown>>) {
        if (typeof item.sku !== 'string' || item.sku === '' || typeof item.quantity !== 'number' || item.quantity < 1)
          return [400, { error: 'each item needs a sku and a quantity' }];
      }
      const order: Order = {
        id: nextOrder++,
        customerId: object.customerId,
        status: 'pending',
        items: items as Order['items'],
      };
      orders.set(order.id, order);
      created.orders.push(order.id);
      return [201, order];
    }
    const shipment = /^\/orders\/([^/]+)\/shipments$/.exec(path);
    if (method === 'POST' && shipment) {
      if (headers['x-warehouse-key'] !== options.warehouseKey && !bearer)
        return [401, { error: 'warehouse key or bearer token required' }];
      const order = orders.get(Number(shipment[1]));
      if (order === undefined) return [404, { error: `no order ${shipment[1]}` }];
      if (!query.get('warehouse')) return [400, { error: 'warehouse required' }];
      if (typeof object.carrier !== 'string') return [400, { error: 'carrier required' }];
      order.status = 'shipped';
      const id = `shp_${created.shipments.length + 1}`;
      created.shipments.push(id);
      return [202, { id, orderId: order.id, carrier: object.carrier }];
    }
    const get = /^\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && get) {
      const order = orders.get(Number(get[1]));
      return order === undefined ? [404, { error: `no order ${get[1]}` }] : [200, order];
    }
    return [404, { error: `no route ${method} ${path}` }];
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://shop.local');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const [status, answer] = handle(request.method ?? 'GET', url.pathname, url.searchParams, request.headers, body);
      seen.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body,
        status,
      });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    created,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
