import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The tokens a reply says it spent (OpenAI's `usage`); 10 + 10 when a reply does not say. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * One scripted reply: chat content (a string, or a value sent as its JSON) with the usage it reports,
 * or a raw HTTP status and body.
 */
export type Reply = { content: unknown; usage?: Usage } | { status: number; body: unknown };

/** A reply computed from the request: a stand-in model that answers what it is asked. */
export type Responder = (request: SeenRequest) => Reply;

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: unknown;
    [key: string]: unknown;
  };
}

export const serverError: Reply = { status: 500, body: { error: { message: 'the model is down', type: 'server_error' } } };

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 (a free port) that answers from a
 * script: each request takes the next reply, or `fallback` once the script is used up.
 */
export class FakeOpenAI {
  readonly requests: SeenRequest[] = [];
  private script: Reply[] = [];
  private fallback: Reply | Responder = serverError;
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const seen: SeenRequest = {
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0] ?? '',
          authorization: req.headers.authorization,
          body: text ? (JSON.parse(text) as SeenRequest['body']) : {},
        };
        this.requests.push(seen);
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (seen.method !== 'POST' || seen.path !== '/v1/chat/completions')
          return send(404, { error: { message: `no route ${seen.method} ${seen.path}`, type: 'invalid_request_error' } });
        const next = this.script.shift() ?? this.fallback;
        const reply = typeof next === 'function' ? next(seen) : next;
        if ('status' in reply) return send(reply.status, reply.body);
        const content = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
        return send(200, {
          id: `chatcmpl-${this.requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: seen.body.model ?? 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage: {
            ...(reply.usage ?? { prompt_tokens: 10, completion_tokens: 10 }),
            total_tokens: (reply.usage?.prompt_tokens ?? 10) + (reply.usage?.completion_tokens ?? 10),
          },
        });
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  /** Replaces the script and what comes after it, and forgets the requests seen. */
  reset(script: Reply[], fallback: Reply | Responder = serverError): void {
    this.script = [...script];
    this.fallback = fallback;
    this.requests.length = 0;
  }
}
