// A decimal a person types into the console (assets/language.js, issue #70): written as their language
// writes it (50.000,00 in Portuguese, 50,000.00 in English), sent as the API takes it (50000.00); what is no
// number is sent as typed, for the API's refusal to name. An amount shown for editing is written with the
// language's decimal mark.
import t from 'tap';

let chosen = 'pt';
Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: { getItem: () => chosen, setItem: () => undefined } });
const { decimalShown, decimalTyped } = await import(new URL('../assets/language.js', import.meta.url).href);

const cases: Record<string, Array<[string, string]>> = {
  pt: [
    ['50.000,00', '50000.00'],
    ['50000,00', '50000.00'],
    ['50000,5', '50000.5'],
    ['R$ 1.500', '1500'],
    ['R$\u00a050.000,00', '50000.00'],
    ['1.500.000', '1500000'],
    ['50000.5', '50000.5'],
    ['1.234.567,89', '1234567.89'],
    ['  250 ', '250'],
    ['50 000,00', '50000.00'],
    ['1,5.00', '1,5.00'],
    ['1,2,3', '1,2,3'],
    ['dez reais', 'dez reais'],
    ['', ''],
  ],
  en: [
    ['50,000.00', '50000.00'],
    ['50000.00', '50000.00'],
    ['1,500', '1500'],
    ['1,500,000.25', '1500000.25'],
    ['50000,5', '50000.5'],
    ['1.500', '1.500'],
    ['R$ 2,000', '2000'],
    ['1.5,00', '1.5,00'],
    ['ten', 'ten'],
  ],
};
for (const [lang, pairs] of Object.entries(cases)) {
  t.test(`typed in ${lang}`, async (t) => {
    chosen = lang;
    for (const [typed, sent] of pairs) t.equal(decimalTyped(typed), sent, `${JSON.stringify(typed)} is sent as ${JSON.stringify(sent)}`);
  });
}

t.test('an amount shown for editing', async (t) => {
  chosen = 'pt';
  t.equal(decimalShown('50000.00'), '50000,00');
  t.equal(decimalTyped(decimalShown('50000.00')), '50000.00', 'and sent back as it was');
  t.equal(decimalShown(null), '');
  chosen = 'en';
  t.equal(decimalShown('50000.00'), '50000.00');
  t.equal(decimalTyped(decimalShown('1234.5')), '1234.5');
});
