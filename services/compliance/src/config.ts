// The compliance service's settings: the kit's base configuration, the key of its list cursors
// (the case queue), how long it trusts an operator's compliance profile before asking again, how
// long a watch replica may hold an event, and where screening asks.
import { Type, type Static } from '@sinclair/typebox';
import { BaseConfigSchema, ListCursorConfigSchema, providerSecret } from '@bo/service-kit';

export const ComplianceConfigSchema = Type.Composite([
  BaseConfigSchema,
  ListCursorConfigSchema,
  Type.Object({
    /**
     * How long the watch reuses an operator's profile (off or br-spa) before asking the players
     * service again: switching an operator to br-spa takes effect on its events within this time.
     */
    PROFILE_CACHE_MS: Type.Integer({ minimum: 0, default: 5000 }),
    /** How long an event handed to a watch replica may stay unacknowledged (a replica that died holding it) before another gets it. */
    WATCH_ACK_WAIT_MS: Type.Integer({ minimum: 1000, default: 30_000 }),
    /**
     * Where PEP and sanctions screening asks: the simulator (its lists in this service's schema,
     * edited through the admin API: npm start, the sandbox, the tests) or a provider's HTTP API
     * (SCREENING_URL, SCREENING_API_KEY; screening/http-adapter.ts).
     */
    SCREENING_PROVIDER: Type.Union([Type.Literal('simulator'), Type.Literal('http')], { default: 'simulator' }),
    SCREENING_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
    /** The provider's credential (a secret: from the provider Secret, never logged), required with SCREENING_PROVIDER=http. */
    SCREENING_API_KEY: providerSecret(),
    SCREENING_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5000 }),
    /** How often the scheduled job looks for yesterday's daily regulator files to make. */
    DAILY_FILE_INTERVAL_MS: Type.Integer({ minimum: 1000, default: 300_000 }),
    /**
     * Where SIGAP files go (issue #46; docs/aml.md, "SIGAP files"): the simulator (npm start, the
     * tests; sandbox brands always) or SIGAP's HTTP API (SIGAP_URL, SIGAP_TOKEN; sigap/http-adapter.ts).
     */
    SIGAP_PROVIDER: Type.Union([Type.Literal('simulator'), Type.Literal('http')], { default: 'simulator' }),
    SIGAP_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
    /** The operator's SIGAP credential (a secret: from the provider Secret, never logged), required with SIGAP_PROVIDER=http. */
    SIGAP_TOKEN: providerSecret(),
    SIGAP_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
    SIGAP_RETRIES: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
    /** Records per SIGAP file at most (a public figure: 7,000); a type with more is sent in parts. */
    SIGAP_RECORDS_PER_FILE: Type.Integer({ minimum: 1, maximum: 7000, default: 7000 }),
    /** How often the SIGAP job makes and sends yesterday's files and asks about those pending. */
    SIGAP_INTERVAL_MS: Type.Integer({ minimum: 1000, default: 300_000 }),
    /** A COS awaiting filing is `near` its deadline when less than this is left (the console and bo_aml_cos_awaiting{state}; issue #46). */
    COS_NEAR_MS: Type.Integer({ minimum: 0, default: 14_400_000 }),
    /** An alert's 30-day analysis clock is `near` its end when less than this is left (each case's `analysis`, bo_aml_case_analysis{state}; issue #60). */
    AML_ANALYSIS_NEAR_MS: Type.Integer({ minimum: 0, default: 432_000_000 }),
    /**
     * With NODE_ENV=production and SCREENING_PROVIDER=simulator the service refuses to start unless this
     * says so explicitly (issue #60): the simulator's lists are empty until our team fills them, so no
     * player, partner or supplier would ever be found on a PEP or sanctions list.
     */
    SCREENING_SIMULATOR_IN_PRODUCTION: Type.Boolean({ default: false }),
    NODE_ENV: Type.Optional(Type.String()),
    /** How often the loop counts the operators whose yearly AML report of last year is overdue (bo_aml_annual_reports_overdue). */
    AML_DUTIES_INTERVAL_MS: Type.Integer({ minimum: 1000, default: 600_000 }),
    /**
     * The harm feed of players at risk (issue #68; docs/player-protection.md): its counting costs the bench's
     * deposits 2% (docs/benchmarks.md). Off: no player is assessed, every one reads `none`.
     */
    HARM_FEED: Type.Boolean({ default: true }),
    /** How long the harm feed's first event of a batch waits for others (nothing waits on a count: a batch of hundreds is one statement). */
    HARM_FEED_WINDOW_MS: Type.Integer({ minimum: 0, default: 1000 }),
    /** How often the players the harm feed counted are assessed (each once per pass, however many events came). */
    HARM_ASSESS_INTERVAL_MS: Type.Integer({ default: 60_000, minimum: 10 }),
    /** How often the harm feed reads the wallet's hours of play into the players' days (stakes, bets, wins, time, night). */
    HARM_PLAY_INTERVAL_MS: Type.Integer({ default: 60_000, minimum: 10 }),
    /** How long a measure taken from a harm case may wait for the players service's answer before the reconciler asks again (and how often it looks). */
    HARM_MEASURE_RETRY_MS: Type.Integer({ default: 30_000, minimum: 10 }),
  }),
]);
export type ComplianceConfig = Static<typeof ComplianceConfigSchema>;
