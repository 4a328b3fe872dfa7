// The launch page's HTML (page.ts): whatever a session carries is escaped, and the page runs no
// script but its own.
import t from 'tap';
import { escapeHtml, renderGamePage } from '../src/page.ts';

t.test('the launch page escapes whatever it echoes', async (t) => {
  t.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  const html = renderGamePage(
    {
      sessionId: 'gs_1',
      mode: 'demo',
      currency: 'BRL',
      balance: '1000.00',
      expiresAt: '2030-01-01T00:30:00.000Z',
      playable: true,
      notice: null,
      game: { id: 'gm_x', name: '</script><script>alert(1)</script>', provider: '<b>evil</b>', category: 'slots', kind: 'slots' },
      launch: { type: 'page' },
      limits: { minBet: '0.10', maxBet: '1000.00' },
    },
    'NONCE',
  );
  t.notMatch(html, /<script>alert/);
  t.notMatch(html, /<b>evil/);
  t.match(html, /&lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.equal(html.match(/<script[ >]/g)?.length, 2, 'only the page data and the page script');
});
