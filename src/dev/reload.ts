// The live-reload channel: a Server-Sent Events stream that tells every open page to reload or to swap its stylesheet.
import type { ServerResponse } from 'node:http';
import type { Handler } from '../serve/server.ts';

export const EVENTS_PATH = '/__site-gen/events';

/**
 * `hello` greets each connection with the current build; `reload` asks the pages to reload (only those whose output
 * file is in `pages`, when it is given); `css` names the new stylesheet to swap in. Each carries the build it brings
 * the page to, so a page that missed an event (it was still loading) notices on its next connection.
 */
export type ReloadEvent =
  | { type: 'hello'; build: string }
  | { type: 'reload'; build: string; pages?: string[] }
  | { type: 'css'; build: string; href: string };

/** One event in the text/event-stream format. */
export function formatEvent(event: ReloadEvent): string {
  const { type, ...data } = event;
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface ReloadHub {
  /** Answers GET /__site-gen/events with a stream that stays open. */
  handler: Handler;
  send(event: Exclude<ReloadEvent, { type: 'hello' }>): void;
  /** Open streams. */
  readonly size: number;
  /** Ends every stream. */
  close(): void;
}

export interface ReloadHubOptions {
  /** The build the pages should show now, sent to each new connection. */
  build(): string;
  /** A comment line this often keeps idle connections from being dropped by proxies; default 30 s. */
  heartbeatMs?: number;
}

export function createReloadHub(options: ReloadHubOptions): ReloadHub {
  const clients = new Set<ServerResponse>();
  const heartbeat = setInterval(() => {
    for (const res of clients) res.write(': ping\n\n');
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  return {
    handler(req, res, pathname) {
      if (pathname !== EVENTS_PATH) return false;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
      });
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      // Reconnect quickly when the server restarts: the page then reloads if the build changed meanwhile.
      res.write(`retry: 500\n\n${formatEvent({ type: 'hello', build: options.build() })}`);
      clients.add(res);
      res.once('close', () => clients.delete(res));
      return true;
    },
    send(event) {
      const text = formatEvent(event);
      for (const res of clients) res.write(text);
    },
    get size() {
      return clients.size;
    },
    close() {
      clearInterval(heartbeat);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
