// The launch page's client: plays a round per click against POST /play/<token>/rounds and shows
// what the server decided (the outcome is drawn server-side, never here). Plain ES2020 for any
// browser an operator's players use; every value shown goes through textContent, never innerHTML.
(() => {
  const S = JSON.parse(document.getElementById('session-data').textContent);
  const $ = (id) => document.getElementById(id);
  const form = $('bet-form'),
    btn = $('play'),
    amountEl = $('amount'),
    targetEl = $('target'),
    pickEl = $('pick');
  const stage = $('stage'),
    outcome = $('outcome'),
    balanceEl = $('balance'),
    history = $('history');
  const SYMBOLS = { cherry: '\u{1F352}', lemon: '\u{1F34B}', orange: '\u{1F34A}', grape: '\u{1F347}', bell: '\u{1F514}', seven: '7\uFE0F\u20E3' };
  let pendingRoundId = null,
    busy = false,
    // A reality check on screen: no round until the player acknowledges it.
    checking = false;

  function newRoundId() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, (x) => `0${x.toString(16)}`.slice(-2)).join('');
  }
  function sleep(ms) {
    return new Promise((r) => {
      setTimeout(r, ms);
    });
  }
  function show(text, cls) {
    outcome.textContent = text;
    outcome.className = `outcome ${cls || ''}`;
  }

  async function animate(r) {
    const o = r.outcome;
    if (S.kind === 'crash') {
      let end = Number(o.crashPoint),
        m = 1;
      while (m < end) {
        stage.textContent = `${m.toFixed(2)}\u00D7`;
        await sleep(30);
        m = Math.min(end, m * 1.06 + 0.01);
      }
      stage.textContent = `${Number(o.crashPoint).toFixed(2)}\u00D7 \u{1F4A5}`;
    } else if (S.kind === 'dice') {
      for (let i = 0; i < 12; i++) {
        stage.textContent = String(1 + Math.floor(Math.random() * 100));
        await sleep(40);
      }
      stage.textContent = String(o.roll);
    } else if (S.kind === 'roulette') {
      for (let j = 0; j < 12; j++) {
        stage.textContent = String(Math.floor(Math.random() * 37));
        await sleep(40);
      }
      stage.textContent = String(o.number);
      stage.className = `stage ${o.color}`;
    } else if (S.kind === 'slots') {
      const keys = Object.keys(SYMBOLS);
      for (let k = 0; k < 10; k++) {
        stage.textContent = [0, 1, 2].map(() => SYMBOLS[keys[Math.floor(Math.random() * keys.length)]]).join(' ');
        await sleep(50);
      }
      stage.textContent = o.reels.map((s) => SYMBOLS[s] || s).join(' ');
    }
  }

  function describe(r) {
    const o = r.outcome;
    if (S.kind === 'crash') return `Crashed at ${o.crashPoint}\u00D7 (target ${o.target}\u00D7)`;
    if (S.kind === 'dice') return `Rolled ${o.roll} (under ${o.target})`;
    if (S.kind === 'roulette') return `Ball on ${o.number} ${o.color} (bet ${o.pick})`;
    if (S.kind === 'slots') return o.reels.join(' \u00B7 ');
    return '';
  }

  async function play() {
    if (busy || !S.playable || checking) return;
    busy = true;
    btn.disabled = true;
    stage.className = 'stage';
    show('Playing\u2026');
    if (!pendingRoundId) pendingRoundId = newRoundId();
    const body = { amount: amountEl.value.trim(), clientRoundId: pendingRoundId };
    if (targetEl) body.target = targetEl.value.trim();
    if (pickEl) body.pick = pickEl.value;
    try {
      const res = await fetch(`${location.pathname.replace(/\/+$/, '')}/rounds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
      const data = await res.json().catch(() => null);
      // A definite answer: the next click is a new round. After a network error the same id is
      // sent again, so a round the server already played is returned instead of played twice.
      pendingRoundId = null;
      if (!res.ok) {
        const err = data?.error || { code: `HTTP_${res.status}`, message: 'The round could not be played.' };
        const issues = err.details?.issues ? `: ${err.details.issues.map((i) => `${i.path.replace('/', '')} ${i.message}`).join('; ')}` : '';
        show(err.message + issues, 'err');
        outcome.dataset.errorCode = err.code;
        // A refused bet says what can be bet now (the balance may have moved elsewhere, e.g. a withdrawal).
        if (err.details && typeof err.details.balance === 'string') {
          balanceEl.textContent = err.details.balance;
        }
        // Expired or forged link, a player who may no longer play or a suspended operator (403): no more rounds here.
        if (res.status === 410 || res.status === 403 || res.status === 501) {
          S.playable = false;
        }
        return;
      }
      await animate(data);
      balanceEl.textContent = data.balanceAfter === null ? '\u2014' : data.balanceAfter;
      show(`${data.win ? `You won ${data.payout}` : 'No win this time'} \u2014 ${describe(data)}`, data.win ? 'win' : 'lose');
      delete outcome.dataset.errorCode;
      outcome.dataset.roundId = data.id;
      outcome.dataset.win = String(data.win);
      outcome.dataset.payout = data.payout;
      outcome.dataset.balanceAfter = data.balanceAfter === null ? '' : data.balanceAfter;
      const li = document.createElement('li');
      li.textContent = `Bet ${data.amount} \u2192 ${data.win ? `+${data.payout}` : '0.00'} \u00B7 ${describe(data)} \u00B7 balance ${data.balanceAfter}`;
      history.insertBefore(li, history.firstChild);
    } catch {
      show('Network error; press Play to try again (the same round is resumed).', 'err');
    } finally {
      busy = false;
      btn.disabled = !S.playable || checking;
    }
  }

  // Responsible gaming: a heartbeat at least once a minute while the player uses the page (the
  // server counts time played from it and from rounds; 5 idle minutes stop counting), and a reality
  // check every realityCheckMinutes that stops play until the player acknowledges it.
  const base = location.pathname.replace(/\/+$/, '');
  const openedAt = Date.now();
  let lastInput = Date.now();
  for (const ev of ['pointerdown', 'keydown', 'pointermove']) {
    document.addEventListener(
      ev,
      () => {
        lastInput = Date.now();
      },
      { passive: true },
    );
  }
  async function heartbeat() {
    try {
      const res = await fetch(`${base}/heartbeat`, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' });
      return res.status === 200 ? await res.json() : null;
    } catch {
      return null;
    }
  }
  setInterval(() => {
    if (Date.now() - lastInput < 5 * 60000 && document.visibilityState !== 'hidden') heartbeat();
  }, 60000);
  const reality = $('reality-check'),
    realityText = $('reality-text');
  if (S.realityCheckMinutes && reality) {
    setInterval(async () => {
      if (checking) return;
      checking = true;
      btn.disabled = true;
      const minutes = Math.round((Date.now() - openedAt) / 60000);
      const played = `You have been playing for ${minutes} minutes.`;
      realityText.textContent = played;
      reality.hidden = false;
      const hb = await heartbeat();
      if (hb) realityText.textContent = `${played} Net result of this session: ${hb.netResult} ${S.currency}.`;
    }, S.realityCheckMinutes * 60000);
    $('reality-continue').addEventListener('click', () => {
      // Told to the wallet: a reality check dismissed to play on is one of the markers of gambling harm.
      fetch(`${base}/heartbeat`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ realityCheck: 'acknowledged' }),
        credentials: 'omit',
        cache: 'no-store',
      }).catch(() => undefined);
      checking = false;
      reality.hidden = true;
      btn.disabled = !S.playable;
    });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    play();
  });
})();
