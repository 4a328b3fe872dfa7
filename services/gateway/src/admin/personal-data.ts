// Who read what (issue #69; LGPD arts. 37 and 46): a player's CPF, phone, address and sign-up IP in
// an admin answer (a payout's destination too, where it is a CPF or a phone) are masked unless the request reveals them (`?reveal=cpf,phone,address,ip`, or
// `all`), and every answer that carried any of them is recorded before it is sent: who, which
// players, which fields (and which were revealed), the operation and its route. A regulator's every
// read is recorded, personal data or not. One place for every admin read, whichever service
// answered it; the admin API only: the operators' API paths pay nothing.
import { PERSONAL_DATA_FIELDS, validationError, type AdminIdentity, type PersonalDataField } from '@bo/contracts';

/**
 * Answers whose CPFs are not a player's file but the key of a registry our team keeps and acts on
 * (the internal impediments list, the screening list: the console removes an entry by its CPF).
 */
const NOT_A_PLAYER_FILE: ReadonlySet<string> = new Set(['adminListImpediments', 'adminListScreeningEntries']);

const REVEAL_NAMES: Record<string, readonly PersonalDataField[]> = {
  cpf: ['cpf'],
  phone: ['phone'],
  address: ['address'],
  ip: ['signupIp'],
  signupIp: ['signupIp'],
  all: PERSONAL_DATA_FIELDS,
};

/** `?reveal=` as the fields to show whole; anything else is 422 naming the query parameter. */
export function parseReveal(value: unknown): Set<PersonalDataField> {
  const names = typeof value === 'string' ? value.split(',').map((n) => n.trim()) : [];
  const unknown = names.filter((n) => !(n in REVEAL_NAMES));
  if (typeof value !== 'string' || unknown.length > 0) {
    throw validationError('query', [{ path: '/reveal', message: 'must be a comma-separated list of cpf, phone, address, ip, or all' }]);
  }
  return new Set(names.flatMap((n) => REVEAL_NAMES[n]!));
}

/** `123.456.789-09` → `***.456.789-**`: enough to tell two people apart on a call, not to use it. */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : '***';
}

/** Every digit but the last four hidden: `+5511987654321` → `+*********4321`. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '').length;
  let seen = 0;
  return phone.replace(/\d/g, (c) => (++seen <= digits - 4 ? '*' : c));
}

/** The network, not the host: `203.0.113.7` → `203.0.*.*`, `2001:db8::1` → `2001:db8:*`. */
export function maskIp(ip: string): string {
  if (ip.includes('.')) return ip.split('.').slice(0, 2).concat('*', '*').join('.');
  return `${ip.split(':').slice(0, 2).join(':')}:*`;
}

/** The city and the state stay (where, roughly); the street, number, complement, district and postal code do not. */
function maskAddress(address: unknown): unknown {
  if (typeof address === 'string') return '***';
  if (!address || typeof address !== 'object' || Array.isArray(address)) return address;
  return Object.fromEntries(Object.entries(address).map(([k, v]) => [k, k === 'city' || k === 'state' || typeof v !== 'string' ? v : '***']));
}

const MASKS: Record<PersonalDataField, (v: unknown) => unknown> = {
  cpf: (v) => (typeof v === 'string' ? maskCpf(v) : v),
  phone: (v) => (typeof v === 'string' ? maskPhone(v) : v),
  signupIp: (v) => (typeof v === 'string' ? maskIp(v) : v),
  address: maskAddress,
};

/**
 * A payout's destination that is a CPF or a phone: a PIX key that is the player's CPF (`11144477735`) or
 * phone (`+5511…`), a TED account's holder CPF (`bank/branch/account/holderCpf`). The field it is, and the
 * destination masked as that field is; undefined for any other destination (an e-mail or random key).
 */
function personalDestination(destination: string): { field: PersonalDataField; masked: string } | undefined {
  const parts = destination.split('/');
  const last = parts.at(-1)!.trim();
  if (/^[0-9]{11}$/.test(last.replace(/[.\-\s]/g, ''))) return { field: 'cpf', masked: [...parts.slice(0, -1), maskCpf(last)].join('/') };
  if (parts.length === 1 && /^\+[0-9]{10,15}$/.test(last)) return { field: 'phone', masked: maskPhone(last) };
  return undefined;
}

export interface PersonalDataRead {
  playerId: string | null;
  fields: PersonalDataField[];
  revealed: PersonalDataField[];
}

const isPersonalField = (k: string): k is PersonalDataField => (PERSONAL_DATA_FIELDS as readonly string[]).includes(k);
/** An audit row's `address` is a team member's sign-in address (a string), not a player's: only an address object is a player's. */
const carriesPersonalData = (k: string, v: unknown) => isPersonalField(k) && v !== null && v !== undefined && (k !== 'address' || typeof v === 'object');

/**
 * Masks, in place, the personal data of every player in `body` but what `reveal` names, and says
 * which players' data it carried. A player is the object's `id` when it is a player's (`plr_`), its
 * `playerId`, or else the nearest enclosing one's (a deposit's payer is read as its player's file).
 */
export function maskPersonalData(operationId: string, body: unknown, reveal: ReadonlySet<PersonalDataField>): PersonalDataRead[] {
  if (NOT_A_PLAYER_FILE.has(operationId)) return [];
  const reads = new Map<string | null, { fields: Set<PersonalDataField>; revealed: Set<PersonalDataField> }>();
  const walk = (node: unknown, player: string | null): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, player);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const own = typeof o.id === 'string' && o.id.startsWith('plr_') ? o.id : typeof o.playerId === 'string' ? o.playerId : player;
    const carried = (field: PersonalDataField): boolean => {
      const read = reads.get(own) ?? { fields: new Set(), revealed: new Set() };
      reads.set(own, read);
      read.fields.add(field);
      if (reveal.has(field)) read.revealed.add(field);
      return reveal.has(field);
    };
    for (const [k, v] of Object.entries(o)) {
      const destination = k === 'destination' && typeof v === 'string' ? personalDestination(v) : undefined;
      if (carriesPersonalData(k, v)) {
        if (!carried(k as PersonalDataField)) o[k] = MASKS[k as PersonalDataField](v);
      } else if (destination) {
        if (!carried(destination.field)) o[k] = destination.masked;
      } else if (v && typeof v === 'object') walk(v, own);
    }
  };
  walk(body, null);
  return [...reads].map(([playerId, r]) => ({ playerId, fields: [...r.fields], revealed: [...r.revealed] }));
}

/** Files that are one player's personal data whole (an access request's answer): the route names the player. */
const PERSONAL_DATA_FILES: ReadonlySet<string> = new Set(['adminGetDataRequestFile']);

/** What a download reads: every field of the player it names, revealed, for a personal-data file; else nothing personal. */
export function fileReads(operationId: string, params: unknown): PersonalDataRead[] {
  const playerId = (params as { playerId?: unknown } | undefined)?.playerId;
  if (!PERSONAL_DATA_FILES.has(operationId) || typeof playerId !== 'string') return [];
  return [{ playerId, fields: [...PERSONAL_DATA_FIELDS], revealed: [...PERSONAL_DATA_FIELDS] }];
}

/** What the read log gets for one answer: its players' reads, and for a regulator a row even when it carried none. */
export function readsToRecord(identity: AdminIdentity, reads: PersonalDataRead[]): PersonalDataRead[] {
  if (reads.length > 0) return reads;
  return identity.role === 'regulator' ? [{ playerId: null, fields: [], revealed: [] }] : [];
}
