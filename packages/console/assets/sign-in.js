// Team console sign-in: posts the form as JSON, keeps nothing but what the server set (an
// HttpOnly cookie), then opens the page the person came for or their role's first page.
const form = document.getElementById('sign-in');
const status = document.getElementById('status');
const signOut = document.getElementById('sign-out');
// The regulator's inspectors (issue #69) start at the players, the first thing they read.
const HOME = { compliance: '/kyc', finance: '/withdrawals', support: '/players', admin: '/operators', regulator: '/players' };

/** Only a path of this console: never another origin. */
function nextPage(role) {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/[a-z]/.test(next) && !next.startsWith('//') ? next : HOME[role];
}

function show(session) {
  form.hidden = Boolean(session);
  signOut.hidden = !session;
  status.textContent = session ? `Signed in as ${session.user.email} (${session.user.role}). ` : '';
  if (session) {
    const open = document.createElement('a');
    open.href = nextPage(session.user.role);
    open.textContent = 'Open the console';
    status.append(open);
  }
}

const totpField = document.getElementById('totp-field');

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const totp = totpField.hidden ? undefined : form.totp.value.trim();
  const body = JSON.stringify({ email: form.email.value, password: form.password.value, ...(totp ? { totp } : {}) });
  const res = await fetch('/console/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const data = await res.json();
  if (res.ok) {
    form.password.value = '';
    location.assign(nextPage(data.user.role));
  } else if (data.error.code === 'TOTP_REQUIRED') {
    // The password was right: keep it and ask for the code.
    totpField.hidden = false;
    form.totp.required = true;
    form.totp.focus();
    status.textContent = 'Enter the 6-digit code from your authenticator app.';
  } else {
    form.password.value = '';
    if (form.totp) form.totp.value = '';
    status.textContent = data.error.message;
  }
});

signOut.addEventListener('click', async () => {
  const session = await (await fetch('/console/session')).json();
  await fetch('/console/session', { method: 'DELETE', headers: { 'x-csrf-token': session.csrfToken ?? '' } });
  show(undefined);
});

// Signed out answers `signedIn: false` (200): a signed-out visit logs no failed request.
fetch('/console/session')
  .then((r) => (r.ok ? r.json() : undefined))
  .then(
    (s) => show(s?.signedIn ? s : undefined),
    () => show(undefined),
  );
