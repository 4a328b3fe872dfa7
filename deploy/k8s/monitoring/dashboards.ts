// The Grafana dashboards, as code: each panel is a title, its queries and a unit; render.ts writes
// them as provisioning-ready JSON (dashboards/*.json, one ConfigMap through kustomize's
// configMapGenerator, labelled for Grafana's dashboard sidecar). Every query reads series the
// processes serve (README's metrics table), Node's defaults, the alert rules' recording rules or the
// exporters' series docs/operations.md lists: test/e2e/dashboards.test.ts checks it.

interface Query {
  expr: string;
  legend: string;
}
interface Panel {
  title: string;
  queries: Query[];
  unit: string;
  /** A stat (one number) rather than a time series. */
  stat?: boolean;
  description?: string;
}
interface Row {
  title: string;
  panels: Panel[];
}
interface Dashboard {
  uid: string;
  title: string;
  description: string;
  rows: Row[];
}

const R = '$__rate_interval';
/** A route's group: the first segment of its path (the alert rules group the same way). */
const byRouteGroup = (inner: string) => `label_replace(${inner}, "route_group", "$1", "route", "(?:/api/v1)?/([^/]+).*")`;
const MONEY = String.raw`payments\\.(deposits|withdrawals)\\..*|games\\.play\\.round|compliance\\.holds\\.check`;
const q = (expr: string, legend: string): Query => ({ expr, legend });

const DASHBOARDS: Record<string, Dashboard> = {
  api: {
    uid: 'back-office-api',
    title: 'Back-office: API',
    description: 'Requests, errors and duration per route group at the gateway (RED), and the NATS requests the services answer.',
    rows: [
      {
        title: 'Per route group',
        panels: [
          { title: 'Requests', unit: 'reqps', queries: [q('route_group:http_requests:rate5m', '{{route_group}}')] },
          {
            title: 'Errors: 5xx but 503 (share)',
            unit: 'percentunit',
            queries: [q('route_group:http_requests_5xx_not_503:rate5m / route_group:http_requests:rate5m', '{{route_group}}')],
          },
          {
            title: '503 SERVICE_UNAVAILABLE (share)',
            unit: 'percentunit',
            queries: [q('route_group:http_requests_503:rate5m / route_group:http_requests:rate5m', '{{route_group}}')],
          },
          {
            title: 'Duration p99',
            unit: 's',
            queries: [
              q(`histogram_quantile(0.99, sum by (route_group, le) (${byRouteGroup(`rate(http_request_duration_seconds_bucket{job="gateway"}[${R}])`)}))`, '{{route_group}}'),
            ],
          },
          {
            title: '4xx by status',
            unit: 'reqps',
            queries: [q(`sum by (status) (rate(http_request_duration_seconds_count{job="gateway", status=~"4.."}[${R}]))`, '{{status}}')],
          },
          {
            title: 'Idempotency-Key claims and rate-limit refusals',
            unit: 'ops',
            queries: [
              q(`sum by (outcome) (rate(bo_idempotency_outcomes_total[${R}]))`, '{{outcome}}'),
              q(`sum(rate(bo_rate_limit_refusals_total[${R}]))`, '429 RATE_LIMITED'),
            ],
          },
        ],
      },
      {
        title: 'Services (NATS requests)',
        panels: [
          { title: 'Requests answered', unit: 'reqps', queries: [q(`sum by (service) (rate(bo_rpc_duration_seconds_count[${R}]))`, '{{service}}')] },
          {
            title: 'Refused or failed, by code',
            unit: 'reqps',
            queries: [q(`sum by (service, outcome) (rate(bo_rpc_duration_seconds_count{outcome!="ok"}[${R}]))`, '{{service}} {{outcome}}')],
          },
          {
            title: 'Duration p99',
            unit: 's',
            queries: [q(`histogram_quantile(0.99, sum by (service, le) (rate(bo_rpc_duration_seconds_bucket[${R}])))`, '{{service}}')],
          },
        ],
      },
    ],
  },
  money: {
    uid: 'back-office-money',
    title: 'Back-office: money',
    description: 'Deposits, payouts, game rounds and holds as their services answer them; the reconciler; the ledger verification.',
    rows: [
      {
        title: 'Operations',
        panels: [
          {
            title: 'Deposits (create, confirm, fail) by outcome',
            unit: 'ops',
            queries: [q(`sum by (subject, outcome) (rate(bo_rpc_duration_seconds_count{subject=~"payments\\\\.deposits\\\\..*"}[${R}]))`, '{{subject}} {{outcome}}')],
          },
          {
            title: 'Payouts (withdrawals) by outcome',
            unit: 'ops',
            queries: [q(`sum by (subject, outcome) (rate(bo_rpc_duration_seconds_count{subject=~"payments\\\\.withdrawals\\\\..*"}[${R}]))`, '{{subject}} {{outcome}}')],
          },
          {
            title: 'Real-money game rounds by outcome',
            unit: 'ops',
            queries: [q(`sum by (outcome) (rate(bo_rpc_duration_seconds_count{subject="games.play.round"}[${R}]))`, '{{outcome}}')],
          },
          {
            title: 'Hold checks (AML) by outcome',
            unit: 'ops',
            queries: [q(`sum by (outcome) (rate(bo_rpc_duration_seconds_count{subject="compliance.holds.check"}[${R}]))`, '{{outcome}}')],
          },
          {
            title: 'Money operations p99',
            unit: 's',
            description: 'The BackOfficeMoneyLatencyHigh alert pages above 1 s for 10 minutes.',
            queries: [q(`histogram_quantile(0.99, sum by (subject, le) (rate(bo_rpc_duration_seconds_bucket{subject=~"${MONEY}"}[${R}])))`, '{{subject}}')],
          },
        ],
      },
      {
        title: 'Consistency',
        panels: [
          {
            title: 'Reconciler: interrupted moves taken up',
            unit: 'short',
            queries: [q('sum by (kind, result) (increase(bo_reconciler_rows_total[1h]))', '{{kind}} {{result}}')],
          },
          {
            title: 'Group commit: requests per statement, by group',
            unit: 'short',
            description: 'Mean batch of each group commit (docs/money.md, "Group commit"): 1 when idle, more under load.',
            queries: [
              q(
                `sum by (group) (rate(bo_group_commit_items_total[${R}])) / sum by (group) (rate(bo_group_commit_batches_total[${R}]))`,
                '{{group}}',
              ),
            ],
          },
          {
            title: 'Group commit: requests run again alone after their batch failed',
            unit: 'short',
            queries: [q('sum by (group) (increase(bo_group_commit_retried_alone_total[1h]))', '{{group}}')],
          },
          {
            title: 'Ledger verification: issues found',
            unit: 'short',
            stat: true,
            queries: [q('max(bo_ledger_verify_issues)', 'issues')],
          },
          {
            title: 'Ledger verification: last run',
            unit: 'dateTimeFromNow',
            stat: true,
            queries: [q('max(bo_ledger_verify_last_run_timestamp_seconds) * 1000', 'last run')],
          },
        ],
      },
      {
        title: 'The prize clock (120 minutes)',
        panels: [
          {
            title: 'br-spa withdrawals waiting for their payout, by deadline',
            unit: 'short',
            description: 'WithdrawalPayoutNearDeadline warns on near (under 30 minutes left); WithdrawalPayoutOverdue pages on overdue.',
            queries: [q('max by (state) (bo_withdrawals_payout_clock)', '{{state}}')],
          },
          {
            title: 'Provider prizes credited, by clock',
            unit: 'short',
            description: 'on_time, late (PrizeCreditsLate warns), untimed (a sports win without eventEndedAt).',
            queries: [q('sum by (clock) (increase(bo_prize_credits_total[1h]))', '{{clock}}')],
          },
          {
            title: "Prize credit delay from the event's end, p50 / p99",
            unit: 's',
            queries: [
              q(`histogram_quantile(0.5, sum by (le) (rate(bo_prize_credit_delay_seconds_bucket[${R}])))`, 'p50'),
              q(`histogram_quantile(0.99, sum by (le) (rate(bo_prize_credit_delay_seconds_bucket[${R}])))`, 'p99'),
            ],
          },
        ],
      },
    ],
  },
  webhooks: {
    uid: 'back-office-webhooks',
    title: 'Back-office: webhooks',
    description: 'Delivery attempts, the queue and its lag, the outbox that feeds it.',
    rows: [
      {
        title: 'Delivery',
        panels: [
          { title: 'Attempts by outcome', unit: 'ops', queries: [q(`sum by (outcome) (rate(bo_webhook_attempts_total[${R}]))`, '{{outcome}}')] },
          { title: 'Queue: pending and due', unit: 'short', queries: [q('sum by (state) (bo_webhook_queue_depth)', '{{state}}')] },
          {
            title: 'Delivery lag (oldest due delivery)',
            unit: 's',
            description: 'WebhookDeliveryLagging pages above 5 minutes.',
            queries: [q('max(bo_webhook_oldest_due_age_seconds)', 'lag')],
          },
          {
            title: 'Outbox: oldest unpublished event',
            unit: 's',
            queries: [q('max by (service) (bo_outbox_oldest_age_seconds)', '{{service}}')],
          },
        ],
      },
    ],
  },
  compliance: {
    uid: 'back-office-compliance',
    title: 'Back-office: compliance',
    description: 'The AML watch and its cases, the impediment sweep, the daily regulator files, the COS deadlines, risk reviews and yearly reports.',
    rows: [
      {
        title: 'AML',
        panels: [
          {
            title: 'AML watch lag p50 / p99',
            unit: 's',
            queries: [
              q(`histogram_quantile(0.5, sum by (le) (rate(bo_aml_watch_lag_seconds_bucket[${R}])))`, 'p50'),
              q(`histogram_quantile(0.99, sum by (le) (rate(bo_aml_watch_lag_seconds_bucket[${R}])))`, 'p99'),
            ],
          },
          { title: 'Deposits judged, by path', unit: 'ops', queries: [q(`sum by (path) (rate(bo_aml_watch_deposits_total[${R}]))`, '{{path}}')] },
          { title: 'Cases by status', unit: 'short', queries: [q('max by (status) (bo_aml_cases)', '{{status}}')] },
        ],
      },
      {
        title: 'Impediments and daily files',
        panels: [
          {
            title: 'Impediment sweep: checks by answer',
            unit: 'short',
            queries: [q('sum by (outcome) (increase(bo_impediment_sweep_checks_total[1h]))', '{{outcome}}')],
          },
          {
            title: 'Impediment sweeps finished (16 days)',
            unit: 'short',
            stat: true,
            queries: [q('sum(increase(bo_impediment_sweep_batches_total{state="finished"}[16d]))', 'finished')],
          },
          { title: 'Brands without yesterday’s daily file', unit: 'short', stat: true, queries: [q('max(bo_daily_files_pending)', 'brands')] },
          {
            title: 'Daily files job: last pass',
            unit: 'dateTimeFromNow',
            stat: true,
            queries: [q('max(bo_daily_files_last_pass_timestamp_seconds) * 1000', 'last pass')],
          },
        ],
      },
      {
        title: 'AML duties (issue #46)',
        panels: [
          { title: 'COS awaiting filing, by state', unit: 'short', queries: [q('max by (state) (bo_aml_cos_awaiting)', '{{state}}')] },
          { title: 'Risk reviews past due, by kind', unit: 'short', queries: [q('max by (kind) (bo_aml_risk_reviews_overdue)', '{{kind}}')] },
          { title: 'Yearly reports overdue', unit: 'short', stat: true, queries: [q('max(bo_aml_annual_reports_overdue)', 'operators')] },
        ],
      },
    ],
  },
  infrastructure: {
    uid: 'back-office-infrastructure',
    title: 'Back-office: infrastructure',
    description: 'Processes (up, CPU, memory, event loop), Postgres pools and connections, NATS and JetStream, the outboxes.',
    rows: [
      {
        title: 'Processes',
        panels: [
          { title: 'Replicas up', unit: 'short', queries: [q('sum by (job) (up)', '{{job}}')] },
          { title: 'CPU', unit: 'percentunit', queries: [q(`sum by (pod) (rate(process_cpu_seconds_total[${R}]))`, '{{pod}}')] },
          { title: 'Resident memory', unit: 'bytes', queries: [q('max by (pod) (process_resident_memory_bytes)', '{{pod}}')] },
          { title: 'V8 heap used', unit: 'bytes', queries: [q('sum by (pod) (nodejs_heap_size_used_bytes)', '{{pod}}')] },
          { title: 'Event loop lag p99', unit: 's', queries: [q('max by (pod) (nodejs_eventloop_lag_p99_seconds)', '{{pod}}')] },
          { title: 'Outbox backlog', unit: 'short', queries: [q('sum by (service) (bo_outbox_backlog)', '{{service}}')] },
        ],
      },
      {
        title: 'Postgres',
        panels: [
          {
            title: 'Pools: in use, waiting, size',
            unit: 'short',
            queries: [q('sum by (job, state) (bo_pg_pool_connections{state=~"in_use|waiting|max"})', '{{job}} {{state}}')],
          },
          {
            title: 'Server connections / max_connections',
            unit: 'percentunit',
            queries: [q('sum by (pod) (cnpg_backends_total) / on (pod) max by (pod) (cnpg_pg_settings_setting{name="max_connections"})', '{{pod}}')],
          },
        ],
      },
      {
        title: 'NATS',
        panels: [
          {
            title: 'Nodes with JetStream',
            unit: 'short',
            stat: true,
            queries: [q('sum(jetstream_server_jetstream_disabled{job="nats"} == bool 0)', 'nodes')],
          },
          { title: 'Streams: replicas held', unit: 'short', queries: [q('count by (stream_name) (jetstream_stream_last_seq{job="nats"})', '{{stream_name}}')] },
          {
            title: 'Streams: messages written',
            unit: 'ops',
            queries: [q(`max by (stream_name) (rate(jetstream_stream_last_seq{job="nats"}[${R}]))`, '{{stream_name}}')],
          },
          {
            title: 'Consumers: messages pending',
            unit: 'short',
            queries: [q('max by (stream_name, consumer_name) (jetstream_consumer_num_pending{job="nats"})', '{{stream_name}} / {{consumer_name}}')],
          },
          {
            title: 'JetStream storage used',
            unit: 'percentunit',
            queries: [q('max by (server_name) (jetstream_server_total_message_bytes{job="nats"} / jetstream_server_max_storage{job="nats"})', '{{server_name}}')],
          },
          {
            title: 'Connections and slow consumers',
            unit: 'short',
            queries: [
              q('sum by (server_name) (gnatsd_varz_connections{job="nats"})', '{{server_name}} connections'),
              q('sum by (server_name) (gnatsd_varz_slow_consumers{job="nats"})', '{{server_name}} slow consumers'),
            ],
          },
        ],
      },
    ],
  },
};

/** One dashboard as Grafana's JSON model: rows of two panels, a Prometheus data source to choose. */
function toGrafana(d: Dashboard): Record<string, unknown> {
  const panels: Record<string, unknown>[] = [];
  let id = 1;
  let y = 0;
  for (const row of d.rows) {
    panels.push({ id: id++, type: 'row', title: row.title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
    row.panels.forEach((p, i) => {
      panels.push({
        id: id++,
        type: p.stat ? 'stat' : 'timeseries',
        title: p.title,
        ...(p.description ? { description: p.description } : {}),
        datasource: { type: 'prometheus', uid: '${datasource}' },
        gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: y + Math.floor(i / 2) * 8 },
        fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
        options: p.stat ? { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false } } : { legend: { displayMode: 'list', placement: 'bottom' } },
        targets: p.queries.map((t, k) => ({
          refId: String.fromCharCode(65 + k),
          datasource: { type: 'prometheus', uid: '${datasource}' },
          expr: t.expr,
          legendFormat: t.legend,
        })),
      });
    });
    y += Math.ceil(row.panels.length / 2) * 8;
  }
  return {
    uid: d.uid,
    title: d.title,
    description: d.description,
    tags: ['back-office'],
    timezone: 'utc',
    editable: false,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [{ name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 }],
    },
    links: [{ title: 'Runbook', type: 'link', url: 'docs/runbook.md', targetBlank: true }],
    annotations: { list: [] },
    panels,
  };
}

/** Each dashboard's file name (dashboards/<name>.json) → its JSON text. */
export function renderDashboards(): Map<string, string> {
  return new Map(Object.entries(DASHBOARDS).map(([name, d]) => [`${name}.json`, `${JSON.stringify(toGrafana(d), null, 2)}\n`]));
}
