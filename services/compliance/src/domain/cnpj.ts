// A CNPJ (the Brazilian company registry number): 14 digits, the last two check digits (modulo 11,
// weights 5..2,9..2 and 6..2,9..2, as the Receita Federal publishes them). Plain rules, no I/O.
import { validationError } from '@bo/contracts';

export function isValidCnpj(digits: string): boolean {
  if (!/^[0-9]{14}$/.test(digits) || /^(\d)\1{13}$/.test(digits)) return false;
  const check = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === Number(digits[12]) && check(13) === Number(digits[13]);
}

/** The CNPJ's digits, or a 422 on `path` naming why it is not one. */
export function cnpjDigits(value: string, path = '/cnpj'): string {
  const digits = value.replace(/[./-]/g, '');
  if (!isValidCnpj(digits)) throw validationError('body', [{ path, message: 'a CNPJ: 14 digits with valid check digits' }]);
  return digits;
}

/** Why a production brand's SIGAP files (and monthly report) are not made: the operator's CNPJ is not registered. */
export const cnpjProblem = (operatorId: string | null) =>
  `the operator's CNPJ is not registered (PUT /admin/reports/sigap/operators/${operatorId ?? '…'}): every SIGAP file carries it`;
