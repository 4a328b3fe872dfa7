// The compliance service (issue #28): the AML watch over the events stream, our team's cases with
// their evidence and decisions, each player's risk level, the brands' rule thresholds, and the
// payout hold payments asks about. It owns schema `compliance`; nothing it holds is ever answered
// to an operator (no tipping off): its operations are admin operations or internal messages.
import {
  amlAdminOperations,
  amlAnnualReportOperations,
  amlMessages,
  amlReportDecisionOperations,
  amlRiskRegisterOperations,
  amlRiskAssessmentOperations,
  cosAdminOperations,
  dailyFileAdminOperations,
  dailyFilesAdminOperations,
  screeningAdminOperations,
  screeningSandboxOperations,
  harmAdminOperations,
  harmCaseAdminOperations,
  harmOperations,
  sigapAdminOperations,
  sigapDutiesOperations,
} from '@bo/contracts';
import { handle, personalDataHandlers, type ServiceDefinition, type ServiceDeps } from '@bo/service-kit';
import { compliancePersonalData } from './store/personal-data.ts';
import { ComplianceConfigSchema, type ComplianceConfig } from './config.ts';
import { adminAddScreeningEntry, adminListScreeningEntries, adminRemoveScreeningEntry, adminRescreen } from './handlers/admin-screening.ts';
import { sandboxAddScreeningEntry, sandboxRemoveScreeningEntry } from './handlers/sandbox-screening.ts';
import { httpScreeningAdapter } from './screening/http-adapter.ts';
import type { ScreeningPort } from './screening/port.ts';
import { createScreening, type Screening } from './screening/screening.ts';
import { screeningSimulator } from './screening/simulator.ts';
import { adminAssignCase, adminDecideCase, adminGetCase, adminListCases } from './handlers/admin-cases.ts';
import { adminGetRules, adminSetRules } from './handlers/admin-rules.ts';
import { adminGetHarmThresholds, adminSetHarmThresholds } from './handlers/admin-harm-thresholds.ts';
import { adminCloseHarmCase, adminGetHarmCase, adminListHarmCases, adminRecordHarmInteraction } from './handlers/admin-harm-cases.ts';
import { sandboxSetHarmMarkers } from './handlers/sandbox-harm-markers.ts';
import { adminCos, adminNoOccurrence } from './handlers/admin-files.ts';
import { adminDailyReport } from './handlers/admin-daily-report.ts';
import { adminDownloadDailyFile, adminGetDailyFile, adminListDailyFiles } from './handlers/admin-daily-files.ts';
import { startDailyFileJob } from './reports/daily-job.ts';
import { adminDownloadSigapFile, adminGetSigapDay, adminListSigapFiles, adminResendSigapFile, adminSubmitSigapDay } from './handlers/admin-sigap-files.ts';
import type { SigapDeps } from './reports/sigap-files.ts';
import { sigapAnswerCounter, startSigapJob } from './reports/sigap-job.ts';
import { sigapHttpAdapter } from './sigap/http-adapter.ts';
import type { SigapPort } from './sigap/port.ts';
import { sigapSimulator } from './sigap/simulator.ts';
import { playersAdmin, type PlayersAdmin } from './players-admin.ts';
import { adminGetPlayerRisk, holdCheck } from './handlers/player-risk.ts';
import { complianceEntities } from './store/entities.ts';
import { COMPLIANCE_SCHEMA, complianceMigrations } from './store/migrations.ts';
import { startEventWatch } from './watch/event-watch.ts';
import { harmFeedMetrics, startHarmFeed } from './harm/harm-feed.ts';
import { startHarmAssessments } from './harm/harm-assessments.ts';
import { startHarmMeasureReconciler } from './harm/harm-measures.ts';
import { adminTakeHarmMeasure } from './handlers/admin-harm-measures.ts';
import { startHarmPlayPass } from './harm/harm-play.ts';
import { getPlayerHarmLevel } from './handlers/harm-level.ts';
import { operatorProfiles } from './watch/operator-profiles.ts';
import { registerCaseMetrics, watchMetrics } from './watch/watch-metrics.ts';
import { adminReportDecision } from './handlers/admin-report-decision.ts';
import { adminAddRiskSubject, adminEndRiskSubject, adminGetRiskSubject, adminListRiskSubjects, adminRateRiskSubject } from './handlers/admin-risk-register.ts';
import { adminGetAnnualReport, adminListAnnualReports, adminMakeAnnualReport } from './handlers/admin-annual-reports.ts';
import { registerDutiesMetrics, startAnnualReportsWatch } from './reports/duties-metrics.ts';
import { adminListRiskAssessments, adminSaveRiskAssessment } from './handlers/admin-risk-assessments.ts';
import { adminGetSigapMonthlyReport, adminGetSigapOperator, adminMakeSigapMonthlyReport, adminSetSigapOperator } from './handlers/admin-sigap-duties.ts';

const playersOf = (deps: ServiceDeps<ComplianceConfig>) => playersAdmin({ nc: deps.nc, prefix: deps.prefix, timeoutMs: deps.config.RPC_TIMEOUT_MS });

/**
 * Why production must not start with the screening simulator (issue #60): its lists are empty until
 * our team fills them, so nobody would ever be found on a PEP or sanctions list. Only an explicit
 * SCREENING_SIMULATOR_IN_PRODUCTION=true lets it (undefined: no objection).
 */
export function screeningRefusal(c: Pick<ComplianceConfig, 'NODE_ENV' | 'SCREENING_PROVIDER' | 'SCREENING_SIMULATOR_IN_PRODUCTION'>): string | undefined {
  if (c.NODE_ENV !== 'production' || c.SCREENING_PROVIDER !== 'simulator' || c.SCREENING_SIMULATOR_IN_PRODUCTION) return undefined;
  return "SCREENING_PROVIDER=simulator screens against the simulator's own lists, empty until our team fills them: set SCREENING_PROVIDER=http (SCREENING_URL, SCREENING_API_KEY), or SCREENING_SIMULATOR_IN_PRODUCTION=true to run on the simulator knowingly";
}

function screeningPortOf(deps: ServiceDeps<ComplianceConfig>): ScreeningPort {
  const c = deps.config;
  const refusal = screeningRefusal(c);
  if (refusal) throw new Error(`refusing to start in production: ${refusal}`);
  if (c.SCREENING_PROVIDER === 'simulator') {
    if (c.NODE_ENV === 'production')
      deps.log.warn(
        'PEP and sanctions screening runs on the simulator in production (SCREENING_SIMULATOR_IN_PRODUCTION=true): only its own lists are screened',
      );
    return screeningSimulator(deps.sql);
  }
  if (!c.SCREENING_URL || !c.SCREENING_API_KEY) throw new Error('SCREENING_PROVIDER=http needs SCREENING_URL and SCREENING_API_KEY');
  return httpScreeningAdapter({ url: c.SCREENING_URL, apiKey: c.SCREENING_API_KEY, timeoutMs: c.SCREENING_TIMEOUT_MS });
}

/** SIGAP's port for production brands (SIGAP_PROVIDER) and the simulator every sandbox brand uses. */
function sigapOf(deps: ServiceDeps<ComplianceConfig>): SigapDeps {
  const c = deps.config;
  const simulator = sigapSimulator({ maxRecords: c.SIGAP_RECORDS_PER_FILE });
  let production: SigapPort = simulator;
  if (c.SIGAP_PROVIDER === 'http') {
    if (!c.SIGAP_URL || !c.SIGAP_TOKEN) throw new Error('SIGAP_PROVIDER=http needs SIGAP_URL and SIGAP_TOKEN');
    production = sigapHttpAdapter({ baseUrl: c.SIGAP_URL, token: c.SIGAP_TOKEN, timeoutMs: c.SIGAP_TIMEOUT_MS, retries: c.SIGAP_RETRIES });
  }
  return {
    sql: deps.sql,
    call: deps.call,
    ports: { production, sandbox: simulator },
    recordsPerFile: c.SIGAP_RECORDS_PER_FILE,
    onAnswer: sigapAnswerCounter(deps.metrics),
  };
}

/**
 * The service; `now` is its clock for the daily files and the AML duties' deadlines (tests move it;
 * the watch's rules use the events' own times).
 */
export function createComplianceService(
  o: { now?: () => Date } = {},
): ServiceDefinition<typeof ComplianceConfigSchema, { screening: Screening; players: PlayersAdmin; sigap: SigapDeps; screeningPort: ScreeningPort }> {
  const now = o.now ?? (() => new Date());
  return {
    name: 'compliance',
    schema: COMPLIANCE_SCHEMA,
    config: ComplianceConfigSchema,
    entities: complianceEntities,
    migrations: complianceMigrations,
    // A decision's audit row goes to the internal stream, for the operators service's audit log.
    internalEvents: true,
    setup: (deps) => {
      registerCaseMetrics(deps.metrics, deps.sql);
      registerDutiesMetrics(deps.metrics, deps.sql, { now, nearMs: deps.config.COS_NEAR_MS, analysisNearMs: deps.config.AML_ANALYSIS_NEAR_MS });
      const screeningPort = screeningPortOf(deps);
      return {
        screening: createScreening({ sql: deps.sql, port: screeningPort, sandboxPort: screeningSimulator(deps.sql), players: playersOf(deps) }),
        players: playersOf(deps),
        sigap: sigapOf(deps),
        // The risk register's subjects are screened through production's port (issue #60).
        screeningPort,
      };
    },
    handlers: (deps, { screening, players, sigap, screeningPort }) => ({
      // What compliance holds about a player, for the players service's data requests (issue #69).
      ...personalDataHandlers(deps, compliancePersonalData),
      ...handle(amlAdminOperations.adminListAmlCases, adminListCases(deps, now)),
      ...handle(amlAdminOperations.adminGetAmlCase, adminGetCase(deps, now)),
      ...handle(amlAdminOperations.adminAssignAmlCase, adminAssignCase(deps, now)),
      ...handle(amlAdminOperations.adminAmlCaseDecision, adminDecideCase(deps, players, now)),
      ...handle(amlAdminOperations.adminGetAmlRules, adminGetRules(deps)),
      ...handle(amlAdminOperations.adminSetAmlRules, adminSetRules(deps)),
      ...handle(amlAdminOperations.adminGetPlayerRisk, adminGetPlayerRisk(deps)),
      ...handle(amlMessages.holdCheck, holdCheck(deps)),
      ...handle(screeningAdminOperations.adminListScreeningEntries, adminListScreeningEntries(deps)),
      ...handle(screeningAdminOperations.adminAddScreeningEntry, adminAddScreeningEntry(deps, screening, screeningPort)),
      ...handle(screeningAdminOperations.adminRemoveScreeningEntry, adminRemoveScreeningEntry(deps)),
      ...handle(screeningAdminOperations.adminRescreen, adminRescreen(deps, screening)),
      // The operator's read of its player's harm level (issue #68).
      ...handle(harmOperations.getPlayerHarmLevel, getPlayerHarmLevel(deps)),
      ...handle(harmOperations.sandboxSetHarmMarkers, sandboxSetHarmMarkers(deps, operatorProfiles(deps, deps.config.PROFILE_CACHE_MS))),
      ...handle(harmAdminOperations.adminGetHarmThresholds, adminGetHarmThresholds(deps)),
      ...handle(harmAdminOperations.adminSetHarmThresholds, adminSetHarmThresholds(deps)),
      // Our team's harm cases and interactions (issue #68 item 3).
      ...handle(harmCaseAdminOperations.adminListHarmCases, adminListHarmCases(deps)),
      ...handle(harmCaseAdminOperations.adminGetHarmCase, adminGetHarmCase(deps)),
      ...handle(harmCaseAdminOperations.adminRecordHarmInteraction, adminRecordHarmInteraction(deps)),
      ...handle(harmCaseAdminOperations.adminTakeHarmMeasure, adminTakeHarmMeasure(deps)),
      ...handle(harmCaseAdminOperations.adminCloseHarmCase, adminCloseHarmCase(deps)),
      ...handle(screeningSandboxOperations.sandboxAddScreeningEntry, sandboxAddScreeningEntry(deps, screening)),
      ...handle(screeningSandboxOperations.sandboxRemoveScreeningEntry, sandboxRemoveScreeningEntry(deps)),
      ...handle(cosAdminOperations.adminAmlCos, adminCos(deps, players)),
      ...handle(cosAdminOperations.adminAmlNoOccurrence, adminNoOccurrence(deps)),
      ...handle(dailyFileAdminOperations.adminDailyReport, adminDailyReport(deps, now)),
      ...handle(dailyFilesAdminOperations.adminListDailyFiles, adminListDailyFiles(deps)),
      ...handle(dailyFilesAdminOperations.adminGetDailyFile, adminGetDailyFile(deps, now)),
      ...handle(dailyFilesAdminOperations.adminDownloadDailyFile, adminDownloadDailyFile(deps, now)),
      ...handle(sigapAdminOperations.adminListSigapFiles, adminListSigapFiles(deps, now)),
      ...handle(sigapAdminOperations.adminGetSigapDay, adminGetSigapDay(sigap, now)),
      ...handle(sigapAdminOperations.adminSubmitSigapDay, adminSubmitSigapDay(deps, sigap, now)),
      ...handle(sigapAdminOperations.adminResendSigapFile, adminResendSigapFile(deps, sigap, now)),
      ...handle(sigapAdminOperations.adminDownloadSigapFile, adminDownloadSigapFile(sigap)),
      // The operator's CNPJ on every SIGAP file and the monthly report (issue #60).
      ...handle(sigapDutiesOperations.adminGetSigapOperator, adminGetSigapOperator(deps)),
      ...handle(sigapDutiesOperations.adminSetSigapOperator, adminSetSigapOperator(deps, now)),
      ...handle(sigapDutiesOperations.adminGetSigapMonthlyReport, adminGetSigapMonthlyReport(deps)),
      ...handle(sigapDutiesOperations.adminMakeSigapMonthlyReport, adminMakeSigapMonthlyReport(deps, now)),
      // AML beyond the players (issue #46): the COS deadline, the yearly report, the risk register.
      ...handle(amlReportDecisionOperations.adminAmlReportDecision, adminReportDecision(deps, now)),
      ...handle(amlAnnualReportOperations.adminListAmlAnnualReports, adminListAnnualReports(deps, now)),
      ...handle(amlAnnualReportOperations.adminGetAmlAnnualReport, adminGetAnnualReport(deps, now)),
      ...handle(amlAnnualReportOperations.adminMakeAmlAnnualReport, adminMakeAnnualReport(deps, now)),
      ...handle(amlRiskRegisterOperations.adminListAmlRiskSubjects, adminListRiskSubjects(deps, now)),
      ...handle(amlRiskRegisterOperations.adminGetAmlRiskSubject, adminGetRiskSubject(deps, now)),
      ...handle(amlRiskRegisterOperations.adminAddAmlRiskSubject, adminAddRiskSubject(deps, now, screeningPort)),
      ...handle(amlRiskRegisterOperations.adminRateAmlRiskSubject, adminRateRiskSubject(deps, now, screeningPort)),
      ...handle(amlRiskRegisterOperations.adminEndAmlRiskSubject, adminEndRiskSubject(deps, now)),
      // The yearly internal risk assessment (issue #60).
      ...handle(amlRiskAssessmentOperations.adminListAmlRiskAssessments, adminListRiskAssessments(deps, now)),
      ...handle(amlRiskAssessmentOperations.adminSaveAmlRiskAssessment, adminSaveRiskAssessment(deps, now)),
    }),
    background: (deps, { screening, sigap }) => {
      const profiles = operatorProfiles(deps, deps.config.PROFILE_CACHE_MS);
      const harmBatchSize = harmFeedMetrics(deps.metrics);
      return [
        startEventWatch({
          nc: deps.nc,
          prefix: deps.prefix,
          replicas: deps.config.NATS_REPLICAS,
          sql: deps.sql,
          log: deps.log,
          profiles,
          screening,
          ackWaitMs: deps.config.WATCH_ACK_WAIT_MS,
          metrics: watchMetrics(deps.metrics),
          call: (subject, body) => deps.call(subject, body),
        }),
        startDailyFileJob(deps, { intervalMs: deps.config.DAILY_FILE_INTERVAL_MS, now, log: deps.log }),
        startSigapJob({ ...sigap, metrics: deps.metrics }, { intervalMs: deps.config.SIGAP_INTERVAL_MS, now, log: deps.log }),
        startAnnualReportsWatch(deps, { intervalMs: deps.config.AML_DUTIES_INTERVAL_MS, now, log: deps.log }),
        // The measures taken from harm cases whose request stopped before the players service's answer was kept.
        startHarmMeasureReconciler({
          sql: deps.sql,
          schema: deps.schema,
          call: deps.call,
          outbox: deps.outbox,
          log: deps.log,
          intervalMs: deps.config.HARM_MEASURE_RETRY_MS,
          retryAfterMs: deps.config.HARM_MEASURE_RETRY_MS,
        }),
        // The harm feed's counting, and the players it counted, each assessed once per pass (issue #68).
        ...(deps.config.HARM_FEED
          ? [
              ...startHarmFeed({
                nc: deps.nc,
                prefix: deps.prefix,
                replicas: deps.config.NATS_REPLICAS,
                sql: deps.sql,
                call: deps.call,
                log: deps.log,
                profiles,
                ackWaitMs: deps.config.WATCH_ACK_WAIT_MS,
                windowMs: deps.config.HARM_FEED_WINDOW_MS,
                batchSize: harmBatchSize,
              }),
              startHarmAssessments({ sql: deps.sql, outbox: deps.outbox, log: deps.log, intervalMs: deps.config.HARM_ASSESS_INTERVAL_MS }),
              startHarmPlayPass({ sql: deps.sql, call: deps.call, profiles, log: deps.log, intervalMs: deps.config.HARM_PLAY_INTERVAL_MS }),
            ]
          : []),
      ];
    },
  };
}

export const complianceService = createComplianceService();
