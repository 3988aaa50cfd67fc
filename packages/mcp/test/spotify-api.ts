import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  status: number;
}

export interface SpotifyApi {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The operations of the Spotify fixture (`spotify-subset.json`) that a playlist plan calls, as a
 * real local server: `GET /me` answers the caller's profile, `POST /users/{user_id}/playlists`
 * creates a playlist for that user only. Both want `Authorization: Bearer <token>`.
 */
export async function startSpotifyApi(token: string, userId = 'ada'): Promise<SpotifyApi> {
  const seen: SeenRequest[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await readBody(request);
    const answer = (status: number, payload: unknown) => {
      seen.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        authorization: request.headers.authorization,
        body,
        status,
      });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (request.headers.authorization !== `Bearer ${token}`)
      return answer(401, { error: { status: 401, message: 'Invalid access token' } });
    if (request.method === 'GET' && url.pathname === '/me') {
      return answer(200, { id: userId, display_name: 'Ada', type: 'user', uri: `spotify:user:${userId}` });
    }
    const create = /^\/users\/([^/]+)\/playlists$/.exec(url.pathname);
    if (request.method === 'POST' && create) {
      if (decodeURIComponent(create[1]!) !== userId)
        return answer(403, { error: { status: 403, message: 'not your user' } });
      const name = (body as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || name === '')
        return answer(400, { error: { status: 400, message: 'name is required' } });
      return answer(201, { id: `pl_${seen.length + 1}`, name, owner: { id: userId }, public: false });
    }
    return answer(404, { error: { status: 404, message: 'no such operation' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
