// One language per person (issue #61): the console's labels in Portuguese or English, as the person
// chooses (kept per person in this browser: `bo-console-language:<e-mail>`), never a raw code; money
// as its currency's country writes it (R$ 60.000,00), with Intl.
import { session } from './kit.js';

export const LANGUAGES = [
  ['pt', 'Português'],
  ['en', 'English'],
];

const storeKey = () => `bo-console-language:${session.current?.user?.email ?? ''}`;

/** The signed-in person's language: their choice, else the browser's (Portuguese for pt-*), else English. */
export function language() {
  try {
    const chosen = localStorage.getItem(storeKey());
    if (chosen === 'pt' || chosen === 'en') return chosen;
  } catch {
    // Storage refused (a private window): the browser's language.
  }
  return (navigator.language ?? '').toLowerCase().startsWith('pt') ? 'pt' : 'en';
}

export function chooseLanguage(lang) {
  try {
    localStorage.setItem(storeKey(), lang);
  } catch {
    // Storage refused: the choice lasts this page only.
  }
  location.reload();
}

/** The locale times and numbers are written in. */
export const locale = () => (language() === 'pt' ? 'pt-BR' : 'en-GB');

/** Every code the API answers with, as people read it: [Portuguese, English]. */
const CODES = {
  // Player status and KYC
  ativo: ['Ativo', 'Active'],
  suspenso: ['Suspenso', 'Suspended'],
  bloqueado: ['Bloqueado', 'Blocked'],
  autoexcluido: ['Autoexcluído', 'Self-excluded'],
  encerrado: ['Encerrado', 'Closed'],
  restrito: ['Restrito (impedimento)', 'Restricted (impediment)'],
  nao_iniciado: ['Não iniciado', 'Not started'],
  pendente: ['Pendente', 'Pending'],
  em_analise: ['Em análise', 'Under review'],
  documento_solicitado: ['Documento solicitado', 'Document requested'],
  aprovado: ['Aprovado', 'Approved'],
  reprovado: ['Reprovado', 'Rejected'],
  expirado: ['Expirado', 'Expired'],
  rg: ['RG', 'Identity card (RG)'],
  cnh: ['CNH', "Driver's licence (CNH)"],
  passaporte: ['Passaporte', 'Passport'],
  rne: ['RNE', 'Foreigner ID (RNE)'],
  selfie: ['Selfie', 'Selfie'],
  comprovante_residencia: ['Comprovante de residência', 'Proof of address'],
  // Withdrawals
  under_review: ['Em análise', 'Under review'],
  approved: ['Aprovado', 'Approved'],
  paid: ['Pago', 'Paid'],
  rejected: ['Rejeitado', 'Rejected'],
  cancelled: ['Cancelado', 'Cancelled'],
  failed: ['Falhou', 'Failed'],
  confirmed: ['Confirmado', 'Confirmed'],
  pending: ['Pendente', 'Pending'],
  pix: ['PIX', 'PIX'],
  ted: ['TED', 'TED'],
  debit_card: ['Cartão de débito', 'Debit card'],
  prepaid_card: ['Cartão pré-pago', 'Prepaid card'],
  // AML
  open: ['Aberto', 'Open'],
  reported: ['Comunicado ao COAF', 'Reported to COAF'],
  dismissed: ['Arquivado', 'Dismissed'],
  high: ['Alto', 'High'],
  medium: ['Médio', 'Medium'],
  low: ['Baixo', 'Low'],
  in_and_out: ['Entrada e saída sem jogo', 'In and out'],
  split_deposits: ['Depósitos fracionados', 'Split deposits'],
  high_value: ['Valor elevado', 'High value'],
  shared_destination: ['Destino compartilhado', 'Shared destination'],
  payer_mismatch: ['Pagador não é o apostador', 'Payer is not the player'],
  velocity: ['Velocidade', 'Velocity'],
  pep: ['Pessoa politicamente exposta', 'Politically exposed person'],
  sanctions: ['Sanções', 'Sanctions'],
  // Environments
  production: ['Produção', 'Production'],
  sandbox: ['Sandbox (testes)', 'Sandbox'],
  // SIGAP
  made: ['Gerado', 'Made'],
  sending: ['Enviando', 'Sending'],
  accepted: ['Aceito', 'Accepted'],
  on_time: ['No prazo', 'On time'],
  late: ['Atrasado', 'Late'],
  overdue: ['Vencido', 'Overdue'],
  due: ['No prazo (a enviar)', 'Due'],
  bettors: ['Apostadores', 'Bettors'],
  wallets: ['Carteiras', 'Wallets'],
  online_games: ['Jogos online', 'Online games'],
  sports_bets: ['Apostas esportivas', 'Sports bets'],
  legal_destinations: ['Destinações legais', 'Legal destinations'],
  // Limits
  deposit: ['Depósito', 'Deposit'],
  loss: ['Perda', 'Loss'],
  wager: ['Apostas', 'Wager'],
  time: ['Tempo', 'Time'],
  day: ['Dia', 'Day'],
  week: ['Semana', 'Week'],
  month: ['Mês', 'Month'],
  // Roles
  compliance: ['Compliance', 'Compliance'],
  finance: ['Financeiro', 'Finance'],
  support: ['Suporte', 'Support'],
  admin: ['Administração', 'Admin'],
  // Provider money
  owes: ['A marca deve ao provedor', 'The brand owes the provider'],
  owed: ['O provedor deve à marca', 'The provider owes the brand'],
  settled: ['Quitado', 'Settled'],
  held: ['Retido', 'Held'],
  returned: ['Devolvido ao apostador', 'Returned to the bettor'],
  transferred: ['Transferido (FIES e FUNCAP)', 'Transferred (FIES and FUNCAP)'],
  // Reconciliation with a provider's daily statement (issue #59 item 2)
  ours_only: ['Só nossa', 'Ours only'],
  theirs_only: ['Só do provedor', 'Theirs only'],
  amount_differs: ['Valor difere', 'Amount differs'],
  status_differs: ['Situação difere', 'Status differs'],
  bet: ['Aposta', 'Bet'],
  win: ['Prêmio', 'Win'],
  rollback: ['Estorno', 'Rollback'],
  correction: ['Correção', 'Correction'],
  free_bet: ['Aposta grátis do provedor', 'Provider-funded bet'],
  promo_credit: ['Crédito promocional', 'Promotional credit'],
  jackpot_win: ['Prêmio de jackpot', 'Jackpot win'],
  ok: ['Válida', 'OK'],
  rolled_back: ['Estornada', 'Rolled back'],
  amount: ['valor', 'amount'],
  kind: ['tipo', 'kind'],
  currency: ['moeda', 'currency'],
  // The 30-day AML analysis clock (issue #60 item 5)
  near: ['Perto do prazo', 'Near its deadline'],
  concluded: ['Concluída no prazo', 'Concluded in time'],
  concluded_late: ['Concluída com atraso', 'Concluded late'],
  // Operators, API keys and the team (issue #61 item 6)
  active: ['Ativo', 'Active'],
  suspended: ['Suspenso', 'Suspended'],
  expiring: ['Expirando', 'Expiring'],
  revoked: ['Revogado', 'Revoked'],
  disabled: ['Desativado', 'Disabled'],
  off: ['Desligado', 'Off'],
  'br-spa': ['br-spa (regras brasileiras da SPA)', 'br-spa (Brazilian SPA rules)'],
  // A player's registration and marketing (issue #60)
  feminino: ['Feminino', 'Female'],
  masculino: ['Masculino', 'Male'],
  outro: ['Outro', 'Other'],
  nao_informado: ['Não informado', 'Not stated'],
  phone: ['telefone', 'phone'],
  gender: ['gênero', 'gender'],
  signupIp: ['IP do cadastro', 'sign-up IP'],
  address: ['endereço', 'address'],
  self_exclusion: ['autoexclusão', 'self-exclusion'],
  pause: ['pausa', 'pause'],
  impediment: ['impedimento', 'impediment'],
  closed: ['conta encerrada', 'closed account'],
  // Where a regulator file's time zone came from
  query: ['pedido', 'asked'],
  profile: ['perfil do operador', "operator's profile"],
  default: ['padrão', 'default'],
  // A player's responsible-gaming history: what changed, and by whom
  limit: ['limite', 'limit'],
  self_exclusion_ended: ['fim da autoexclusão', 'self-exclusion ended'],
  self_exclusion_lifted: ['autoexclusão levantada', 'self-exclusion lifted'],
  operator: ['operador', 'operator'],
  team: ['equipe', 'team'],
  system: ['sistema', 'system'],
};

/** A code as people read it in the person's language; an unknown code's words without underscores. */
export function label(code) {
  if (code === null || code === undefined) return '—';
  const known = CODES[code];
  if (known) return known[language() === 'pt' ? 0 : 1];
  return String(code).replaceAll('_', ' ');
}

/** A sentence in the person's language: `say('Portuguese', 'English')`. */
export const say = (pt, en) => (language() === 'pt' ? pt : en);

/** Money as its currency's country writes it (BRL: R$ 60.000,00), whatever the console's language. */
export function money(amount, currency = 'BRL') {
  if (amount === null || amount === undefined || amount === '') return '—';
  const where = currency === 'BRL' ? 'pt-BR' : locale();
  try {
    // The decimal string as it is (Intl formats a string exactly; no float in between).
    return new Intl.NumberFormat(where, { style: 'currency', currency }).format(String(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}
