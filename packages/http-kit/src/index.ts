// The HTTP rules the gateway's edge shares with the surfaces it mounts (console, portal, launch
// page): the error envelope and the mapping of failures to it, raw JSON bodies, the text rules.
export { envelope, logFailure, toAppError } from './errors.ts';
export { BODY_LIMIT_BYTES, jsonObjectBody, keepRawBodies, parseJsonObject, requireJsonMediaType } from './raw-body.ts';
export { badTextIssues, jsonPointer } from './text-rules.ts';
export { compileAllowList, isValidAllowEntry } from './ip-allow-list.ts';
