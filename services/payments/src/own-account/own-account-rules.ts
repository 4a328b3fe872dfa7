// The br-spa payment rules (Ordinance SPA/MF 615/2024, docs/eligibility.md): money only by
// electronic transfer, only from and to an account in the bettor's own CPF.
// - methods: pix, ted, debit_card, prepaid_card (no cash, boleto, cheque, crypto, credit cards);
// - a deposit's payer CPF must be the player's (a mismatch is not credited: deposit-payer.ts);
// - a withdrawal's destination must be the player's: a PIX CPF key equal to it, another PIX key
//   whose owner the PSP says is the player, a TED account whose holder CPF is the player's.
// The PSP lookup fails closed: an outage is 502 PROVIDER_UNAVAILABLE, never a pass.
import { AppError, BR_SPA_METHODS, normaliseCpf, isValidCpf, type PlayerState } from '@bo/contracts';
import type { PixKeyDirectory } from '../providers/pix-key-directory.ts';

/** A br-spa player as players.state answers (absent fields: profile `off`). */
export const isBrSpa = (player: PlayerState): player is PlayerState & { compliance: 'br-spa'; cpf: string } =>
  player.compliance === 'br-spa' && typeof player.cpf === 'string';

export function checkMethod(method: string): void {
  if (!(BR_SPA_METHODS as readonly string[]).includes(method)) {
    throw new AppError('METHOD_NOT_ALLOWED', undefined, { allowed: [...BR_SPA_METHODS] });
  }
}

/** 403 RG_BLOCKED `impeded` for a player an impediment restricted (deposits and play: at once). */
export function checkNotImpeded(player: PlayerState): void {
  if (player.restrictedAt) throw new AppError('RG_BLOCKED', 'This person cannot bet with this operator.', { reason: 'impeded' });
}

/** Withdrawals of a restricted player: only inside the window after the hit. */
export function checkWithdrawalWindow(player: PlayerState, now: Date): void {
  if (player.restrictedAt && player.withdrawalsUntil && now.getTime() >= Date.parse(player.withdrawalsUntil)) {
    throw new AppError('RG_BLOCKED', 'This person cannot bet with this operator.', { reason: 'impeded' });
  }
}

/**
 * Why a destination is not shown to be the player's (`details.reason`): the PSP knows no such PIX key;
 * the key or account is another person's (never who); or the method's destination cannot be checked
 * (a card, a TED account without a holder CPF).
 */
export type NotOwnedReason = 'unknown_key' | 'other_owner' | 'not_verifiable';
const NOT_OWNED_MESSAGES: Record<NotOwnedReason, string> = {
  unknown_key: 'No PIX key like this one is registered: check the key the player gave.',
  other_owner: "The destination account is not in the player's own CPF.",
  not_verifiable: "This destination cannot be shown to be in the player's own CPF: use a PIX key or a TED account (bank/branch/account/holderCpf).",
};
const notOwned = (reason: NotOwnedReason) => new AppError('DESTINATION_NOT_OWNED', NOT_OWNED_MESSAGES[reason], { reason });

/** A CPF-shaped PIX key (11 digits, punctuation allowed). */
const asCpfKey = (destination: string): string | undefined => {
  const digits = destination.replace(/[.\-\s]/g, '');
  return /^[0-9]{11}$/.test(digits) && isValidCpf(digits) ? digits : undefined;
};

/** A PIX destination as kept: a CPF key as its 11 digits (one key, however it was typed); anything else as given. */
export function pixDestinationOf(method: string, destination: string): string {
  return method === 'pix' ? (asCpfKey(destination) ?? destination) : destination;
}

/** `ted` destinations: `bank/branch/account/holderCpf` (the holder's CPF last). */
export function tedHolderCpf(destination: string): string | undefined {
  const holder = destination.split('/').at(-1)?.trim() ?? '';
  return isValidCpf(holder) ? normaliseCpf(holder) : undefined;
}

export async function checkDestinationOwned(
  player: { cpf: string },
  method: string,
  destination: string,
  keys: PixKeyDirectory,
  caller: { operatorId: string },
): Promise<void> {
  if (method === 'ted') {
    const holder = tedHolderCpf(destination);
    if (holder === undefined) throw notOwned('not_verifiable');
    if (holder !== player.cpf) throw notOwned('other_owner');
    return;
  }
  // Only a PIX key or a TED account can be shown to be the player's; a card is not a destination we can check.
  if (method !== 'pix') throw notOwned('not_verifiable');
  const cpfKey = asCpfKey(destination);
  if (cpfKey !== undefined) {
    if (cpfKey !== player.cpf) throw notOwned('other_owner');
    return;
  }
  const owner = await keys.ownerOf(destination.trim(), caller);
  if (owner.result === 'unavailable') throw new AppError('PROVIDER_UNAVAILABLE');
  if (owner.result === 'not_found') throw notOwned('unknown_key');
  if (owner.cpf !== player.cpf) throw notOwned('other_owner');
}
