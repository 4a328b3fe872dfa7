// A valid CPF for the sandbox: the br-spa profile registers a CPF once per brand, so a test or a
// quick start run again needs a new one each time.

/**
 * A random valid CPF (11 digits, check digits computed as the Receita Federal defines them), for
 * sandbox players. Not a real person's by intent; never use it for a real player.
 */
export function generateCpf(): string {
  const random = new Uint32Array(9);
  globalThis.crypto.getRandomValues(random);
  const digits = Array.from(random, (n) => n % 10);
  // Eleven equal digits (e.g. 111.111.111-11) pass the arithmetic but are not valid CPFs.
  if (digits.every((d) => d === digits[0])) digits[8] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}
