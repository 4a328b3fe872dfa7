// autocannon ships no types; this declares the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | null;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers?: Record<string, string>) => void;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9?: number;
    [k: string]: number | undefined;
  }
  interface AutocannonResult {
    url: string;
    duration: number;
    connections: number;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    /** Rate limit per connection (requests a second); with amount/overallRate for steady soaks. */
    connectionRate?: number;
    overallRate?: number;
  }
  function autocannon(opts: AutocannonOptions): Promise<AutocannonResult> & { stop?: () => void };
  export default autocannon;
  export type { AutocannonOptions, AutocannonRequest, AutocannonResult };
}
