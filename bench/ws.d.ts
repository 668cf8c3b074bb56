// The bench's DevTools protocol client (memory.bench.ts) uses `ws` (in node_modules through lighthouse);
// only what it calls is declared here.
declare module 'ws' {
  export default class WebSocket {
    constructor(url: string);
    once(event: 'open' | 'error', listener: (error?: Error) => void): this;
    on(event: 'message', listener: (data: Buffer) => void): this;
    send(data: string): void;
    close(): void;
  }
}
