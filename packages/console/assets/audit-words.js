// The audit log as the team reads it (issue #70): each action by what was done, not its operation's code
// name; a target by the kind of thing it names; a row's before and after as the fields that changed, each
// named and its value written the way the person's language writes it. The row as recorded (its JSON) stays
// one click away. [Portuguese, English] each.
import { CODES, count, day, label, language, money, say, time } from './language.js';

/** Every audited action: the admin API's changes and the console's own sign-ins. */
export const ACTIONS = {
  adminAddAmlRiskSubject: ['Sujeito de risco cadastrado', 'Risk subject added'],
  adminAddConnectorTheirKey: ['Chave do agregador enviada', "Aggregator's key uploaded"],
  adminAddImpediment: ['CPF incluído nos impedimentos', 'CPF added to the impediments'],
  adminAddScreeningEntry: ['Entrada incluída na lista simulada', 'Simulator list entry added'],
  adminAmlCaseDecision: ['Decisão em caso de PLD', 'AML case decision'],
  adminAmlReportDecision: ['Decisão de comunicar ao COAF', 'Decision to report to COAF'],
  adminAssignAmlCase: ['Caso de PLD atribuído', 'AML case assigned'],
  adminCancelComplianceChange: ['Mudança de perfil cancelada', 'Profile change cancelled'],
  adminCloseHarmCase: ['Caso de risco de dano encerrado', 'Harm case closed'],
  adminConfirmComplianceChange: ['Mudança de perfil confirmada', 'Profile change confirmed'],
  adminConfirmUser: ['Pessoa confirmada', 'Person confirmed'],
  adminCreateOperator: ['Operador criado', 'Operator created'],
  adminCreateOwnToken: ['Token pessoal criado', 'Personal token made'],
  adminCreateProvider: ['Fornecedor cadastrado', 'Provider registered'],
  adminCreateToken: ['Token de serviço criado', 'Service token made'],
  adminCreateUser: ['Pessoa incluída na equipe', 'Person added to the team'],
  adminDisableUser: ['Pessoa desativada', 'Person disabled'],
  adminEndAmlRiskSubject: ['Relação com sujeito de risco encerrada', 'Risk subject ended'],
  adminEndGameSessions: ['Sessões de jogo encerradas', 'Game sessions ended'],
  adminFetchProviderStatement: ['Extrato pedido ao fornecedor', "Provider's statement fetched"],
  adminForfeitIntegrityHold: ['Prêmio retido perdido', 'Held prize forfeited'],
  adminIssueProviderCredential: ['Chave de fornecedor emitida', 'Provider key issued'],
  adminKycDecision: ['Decisão de KYC', 'KYC decision'],
  adminLiftSelfExclusion: ['Autoexclusão encerrada', 'Self-exclusion lifted'],
  adminMakeAmlAnnualReport: ['Relatório anual de PLD feito', 'Yearly AML report made'],
  adminMakeSigapMonthlyReport: ['Relatório mensal SIGAP feito', 'Monthly SIGAP report made'],
  adminPausePlayer: ['Apostador pausado', 'Player paused'],
  adminPlaceIntegrityHold: ['Prêmio retido por integridade', 'Prize held for integrity'],
  adminPutGameCertificate: ['Certificado de jogo registrado', 'Game certificate recorded'],
  adminPutProviderGame: ['Jogo de fornecedor registrado', "Provider's game recorded"],
  adminPutProviderStatementMapping: ['Leitura do extrato do fornecedor definida', "Provider's statement mapping set"],
  adminRateAmlRiskSubject: ['Sujeito de risco avaliado', 'Risk subject rated'],
  adminRecordHarmInteraction: ['Interação registrada', 'Interaction recorded'],
  adminRedeliver: ['Webhook reenviado', 'Webhook redelivered'],
  adminReleaseIntegrityHold: ['Prêmio retido liberado', 'Held prize released'],
  adminRemoveImpediment: ['CPF retirado dos impedimentos', 'CPF taken off the impediments'],
  adminRemoveScreeningEntry: ['Entrada retirada da lista simulada', 'Simulator list entry removed'],
  adminRequestComplianceChange: ['Mudança de perfil pedida', 'Profile change requested'],
  adminRescreen: ['Nova verificação de listas', 'Lists screened again'],
  adminResendSigapFile: ['Arquivo SIGAP reenviado', 'SIGAP file resent'],
  adminResetPassword: ['Senha redefinida', 'Password reset'],
  adminResetSecondFactor: ['Segundo fator desligado', 'Second factor reset'],
  adminResumeOperator: ['Operador retomado', 'Operator resumed'],
  adminReturnUnclaimedFunds: ['Valores não reclamados devolvidos', 'Unclaimed funds returned'],
  adminRevokeConnectorKey: ['Chave de conector revogada', 'Connector key revoked'],
  adminRevokeOperatorKey: ['Chave de operador revogada', "Operator's key revoked"],
  adminRevokeOwnToken: ['Token pessoal revogado', 'Personal token revoked'],
  adminRevokeProviderCredential: ['Chave de fornecedor revogada', 'Provider key revoked'],
  adminRevokeToken: ['Token revogado', 'Token revoked'],
  adminRotateConnectorOurKey: ['Nova chave nossa de conector', 'New connector key of ours'],
  adminRotateOperatorKey: ['Nova chave de operador', 'New operator key'],
  adminRotateWebhookSecret: ['Novo segredo de webhook', 'New webhook secret'],
  adminRunUnclaimedFunds: ['Rotina de valores não reclamados executada', 'Unclaimed-funds job run'],
  adminSaveAmlRiskAssessment: ['Avaliação interna de risco salva', 'Risk assessment saved'],
  adminSetAllowedIps: ['IPs permitidos definidos', 'Allowed IPs set'],
  adminSetAmlRules: ['Limiares de PLD definidos', 'AML thresholds set'],
  adminSetAutoApproval: ['Aprovação automática definida', 'Auto-approval set'],
  adminSetCompliance: ['Perfil de conformidade definido', 'Compliance profile set'],
  adminSetConnectorSecret: ['Segredo de conector guardado', 'Connector secret kept'],
  adminSetConnectorSettings: ['Conector configurado', 'Connector settings set'],
  adminSetFourEyes: ['Quatro olhos definido', 'Four eyes set'],
  adminSetHarmThresholds: ['Limiares de risco de dano definidos', 'Harm thresholds set'],
  adminSetPlayerLimits: ['Limites do apostador definidos', "Player's limits set"],
  adminSetPlayerStatus: ['Situação do apostador definida', "Player's status set"],
  adminSetProviderOperator: ['Jogos de fornecedor oferecidos ao operador', "Provider's games offered to an operator"],
  adminSetProviderRevenueShare: ['Participação do fornecedor definida', "Provider's revenue share set"],
  adminSetRateLimit: ['Limite de requisições definido', 'Rate limit set'],
  adminSetRealityCheck: ['Alerta de tempo de jogo mais frequente', 'Reality check more often'],
  adminSetSigapOperator: ['CNPJ do operador registrado', "Operator's CNPJ registered"],
  adminSetStricterLimit: ['Limite mais estrito definido', 'Stricter limit set'],
  adminSetWebhookUrl: ['URL de webhook definida', 'Webhook URL set'],
  adminSubmitSigapDay: ['Dia enviado ao SIGAP', 'Day sent to SIGAP'],
  adminSuspendOperator: ['Operador suspenso', 'Operator suspended'],
  adminSyncConnectorGames: ['Jogos do agregador copiados', "Aggregator's games copied"],
  adminTakeHarmMeasure: ['Medida tomada', 'Measure taken'],
  adminUpdateProvider: ['Fornecedor alterado', 'Provider changed'],
  adminUploadProviderStatement: ['Extrato do fornecedor enviado', "Provider's statement uploaded"],
  adminWithdrawalDecision: ['Decisão de saque', 'Withdrawal decision'],
  consoleSignIn: ['Entrada no console', 'Console sign-in'],
  consoleSignInFailed: ['Entrada no console recusada', 'Console sign-in refused'],
  consoleEnableSecondFactor: ['Segundo fator ligado', 'Second factor turned on'],
  consoleChangePassword: ['Senha trocada', 'Password changed'],
};

/** The kinds of thing a row's target names (`player:plr_…`). */
const TARGETS = {
  operator: ['Operador', 'Operator'],
  provider: ['Fornecedor', 'Provider'],
  player: ['Apostador', 'Player'],
  team_member: ['Pessoa da equipe', 'Team member'],
  withdrawal: ['Saque', 'Withdrawal'],
  harm_case: ['Caso de risco de dano', 'Harm case'],
  aml_case: ['Caso de PLD', 'AML case'],
  service_token: ['Token', 'Token'],
  screening_entry: ['Entrada de lista', 'List entry'],
  impediment: ['Impedimento', 'Impediment'],
  aml_risk_subject: ['Sujeito de risco', 'Risk subject'],
  webhook_event: ['Evento de webhook', 'Webhook event'],
  unclaimed: ['Valor não reclamado', 'Unclaimed funds'],
  sigap_operator: ['CNPJ SIGAP', 'SIGAP CNPJ'],
  sigap_monthly: ['Relatório mensal SIGAP', 'Monthly SIGAP report'],
  sigap_day: ['Dia SIGAP', 'SIGAP day'],
  harm_thresholds: ['Limiares de risco de dano', 'Harm thresholds'],
  aml_rules: ['Limiares de PLD', 'AML thresholds'],
  aml_risk_assessment: ['Avaliação interna de risco', 'Risk assessment'],
  aml_annual_report: ['Relatório anual de PLD', 'Yearly AML report'],
  integrity_hold: ['Retenção por integridade', 'Integrity hold'],
  job: ['Rotina', 'Job'],
  screening: ['Verificação de listas', 'Screening'],
};

/** The fields rows hold most, by name; any other is shown by its API name. */
const FIELDS = {
  status: ['Situação', 'Status'],
  reason: ['Motivo', 'Reason'],
  kycStatus: ['KYC', 'KYC'],
  amount: ['Valor', 'Amount'],
  value: ['Valor', 'Value'],
  environment: ['Ambiente', 'Environment'],
  type: ['Tipo', 'Type'],
  period: ['Período', 'Period'],
  receipt: ['Recibo', 'Receipt'],
  active: ['Ativo', 'Active'],
  risk: ['Risco', 'Risk'],
  assignee: ['Responsável', 'Assignee'],
  name: ['Nome', 'Name'],
  email: ['E-mail', 'E-mail'],
  role: ['Papel', 'Role'],
  profile: ['Perfil', 'Profile'],
  url: ['URL', 'URL'],
  version: ['Versão', 'Version'],
  pausedUntil: ['Pausado até', 'Paused until'],
  realityCheckMinutes: ['Alerta a cada (min)', 'Reality check every (min)'],
  measure: ['Medida', 'Measure'],
  followUpOn: ['Acompanhar em', 'Follow up on'],
  outcome: ['Resultado', 'Outcome'],
  overlapMinutes: ['Sobreposição (min)', 'Overlap (min)'],
  enabled: ['Habilitado', 'Enabled'],
  currency: ['Moeda', 'Currency'],
  address: ['Endereço IP', 'IP address'],
  secondFactor: ['Segundo fator', 'Second factor'],
  oneTimePassword: ['Senha provisória', 'One-time password'],
  sessionsEnded: ['Sessões encerradas', 'Sessions ended'],
  day: ['Dia', 'Day'],
  month: ['Mês', 'Month'],
  cnpj: ['CNPJ', 'CNPJ'],
  category: ['Categoria', 'Category'],
  rating: ['Classificação', 'Rating'],
  threshold: ['Limiar', 'Threshold'],
  limit: ['Limite', 'Limit'],
  destination: ['Destino', 'Destination'],
  method: ['Meio', 'Method'],
  checksum: ['SHA-256', 'SHA-256'],
  sha256: ['SHA-256', 'SHA-256'],
  rateLimitPerMinute: ['Limite por minuto', 'Per-minute limit'],
  allowedIps: ['IPs permitidos', 'Allowed IPs'],
  updatedAt: ['Alterado em', 'Changed at'],
  createdAt: ['Criado em', 'Created at'],
};

const pick = (pair) => pair[language() === 'pt' ? 0 : 1];

/** An action in words; undefined for one this module does not know (the page shows its code). */
export const actionWords = (action) => (Object.hasOwn(ACTIONS, action) ? pick(ACTIONS[action]) : undefined);

/** A target as `{ kind, id }`: the kind in words (undefined when unknown), the id as recorded. */
export function targetWords(target) {
  const at = String(target ?? '').indexOf(':');
  if (at < 0) return { kind: undefined, id: String(target ?? '') };
  const kind = target.slice(0, at);
  return { kind: Object.hasOwn(TARGETS, kind) ? pick(TARGETS[kind]) : undefined, id: target.slice(at + 1) };
}

/** A field's name in words; undefined for one this module does not name. */
export const fieldWords = (key) => (Object.hasOwn(FIELDS, key) ? pick(FIELDS[key]) : undefined);

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT_FIELD = /amount|balance|total|limit|threshold|value|deposit|withdrawal|stake|win|prize/i;
const AMOUNT = /^-?\d+\.\d{2}$/;
const CODE = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+$|^[a-z]+$/;

/**
 * A value as the person's language writes it: a time, a day, an amount (in a money field), a status or
 * another code in words, yes or no; `{ code }` for what is an identifier or a structure (shown as code).
 */
export function valueWords(key, value) {
  if (value === null || value === undefined) return { text: '—' };
  if (typeof value === 'boolean') return { text: value ? say('sim', 'yes') : say('não', 'no') };
  if (typeof value === 'number') return { text: count(value) };
  if (typeof value === 'object') return { code: JSON.stringify(value) };
  const s = String(value);
  if (ISO_TIME.test(s)) return { text: time(s) };
  if (ISO_DAY.test(s)) return { text: day(s) };
  if (AMOUNT.test(s) && AMOUNT_FIELD.test(key)) return { text: money(s) };
  if (CODE.test(s) && Object.hasOwn(CODES, s)) return { text: label(s) };
  // A person's words (a reason, a note) as they wrote them; anything else (ids, keys, references) as code.
  return /\s/.test(s) ? { quoted: s } : { code: s };
}

/**
 * What a row changed: each field of `after` whose value differs from `before` (all of them for a
 * creation), or, for a removal (no `after`), each field `before` held; in the order recorded. A field
 * `before` holds that `after` does not name is not shown: the row did not record it changed.
 */
export function changedFields(before, after) {
  const asObject = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
  const b = asObject(before) ?? {};
  const a = asObject(after);
  if (!a) return Object.keys(b).map((k) => ({ key: k, name: fieldWords(k), before: b[k], after: undefined }));
  return Object.keys(a)
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => ({ key: k, name: fieldWords(k), before: Object.hasOwn(b, k) ? b[k] : undefined, after: a[k] }));
}
