// The part of autocannon's API the benchmark uses (the package ships no types, and
// @types/autocannon is not a dependency): tools/bench.js and tools/bench/fairness.js.
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      requests?: Request[];
    }
    interface Result {
      requests: { average: number };
      latency: { p50: number; p99: number };
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      '3xx': number;
      statusCodeStats?: Record<string, { count: number } | undefined>;
    }
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): unknown;
  export = autocannon;
}
