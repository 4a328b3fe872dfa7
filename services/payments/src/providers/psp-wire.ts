// The payment provider's key-owner lookup wire format, and only that. TO BE MATCHED TO THE
// CONTRACTED PSP'S API (each PSP exposes the Central Bank's DICT lookup its own way) before going
// live: the path and fields here are placeholders of ours.
import type { KeyOwnerAnswer } from './pix-key-directory.ts';

export const keyOwnerPath = (key: string) => `/pix/keys/${encodeURIComponent(key)}/owner`;

/** `{ ownerTaxId: '52998224725' }` → found; 404 → not found (the caller maps the status). */
export function readKeyOwner(body: unknown): KeyOwnerAnswer {
  const taxId = (body as { ownerTaxId?: unknown } | null)?.ownerTaxId;
  // A company's CNPJ (14 digits) is returned as it is: it never equals a player's CPF.
  if (typeof taxId === 'string') return { result: 'found', cpf: taxId };
  return { result: 'unavailable', why: 'unreadable answer' };
}
