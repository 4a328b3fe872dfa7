// The port of the payment provider's PIX key directory (DICT lookup through the PSP): who owns a
// key that is not a CPF (e-mail, phone, random key). One interface for the rules; the real adapter
// (psp-http.ts, wire format in psp-wire.ts) or the simulator (pix-key-simulator.ts) answers.
// An answer is never an exception: an outage is `unavailable`, and the rule fails closed on it.

export type KeyOwnerAnswer = { result: 'found'; cpf: string } | { result: 'not_found' } | { result: 'unavailable'; why: string };

export interface PixKeyDirectory {
  ownerOf(key: string, caller: { operatorId: string }): Promise<KeyOwnerAnswer>;
}
