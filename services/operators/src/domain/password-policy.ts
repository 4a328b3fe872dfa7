// What a password a person chooses must be: at least 12 characters, not their e-mail (nor its name
// part), and not among the ~49,000 most common passwords of zxcvbn-ts' common list (compared
// lower-cased, also with the digits and symbols people add at the end taken off).
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 12;
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** Why `password` is refused for the person with `email`, or undefined when it is acceptable. */
export function passwordProblem(password: string, email: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  const lower = password.toLowerCase();
  const mail = email.toLowerCase();
  const name = mail.split('@')[0] ?? mail;
  if (lower === mail || lower.includes(mail) || (name.length >= 4 && lower.replace(/[^a-z]/g, '') === name.replace(/[^a-z]/g, '')))
    return 'must not be your e-mail address';
  const stem = lower.replace(/[\d\W_]+$/u, '');
  if (COMMON.has(lower) || (stem.length >= 6 && COMMON.has(stem))) return 'is one of the most common passwords: choose another';
  return undefined;
}
