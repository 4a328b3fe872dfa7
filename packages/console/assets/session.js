// The signed-in person, set once by the app (app.js) from GET /console/session. Its own module so the
// console's words (language.js: the person's language is kept per person) and its kit (kit.js: the API
// client's CSRF token) both read it without importing each other.

/** `{ user: { email, role, setupRequired }, csrfToken }` once signed in. */
export const session = { current: undefined };
