// autocannon ships no types; the benches use its callback form only.
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    /** Requests sent per connection before waiting for answers. */
    pipelining?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  function autocannon(options: Options, done: (error: unknown, result: never) => void): unknown;
  export default autocannon;
}
