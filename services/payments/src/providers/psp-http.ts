// The real adapter of the PSP's key-owner lookup: HTTPS with the operator's PSP credential, a timeout
// per attempt and retries on outages. The wire format is psp-wire.ts's.
import type { KeyOwnerAnswer, PixKeyDirectory } from './pix-key-directory.ts';
import { keyOwnerPath, readKeyOwner } from './psp-wire.ts';

export interface PspHttpSettings {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  retries: number;
  fetch?: typeof fetch;
}

export function pspHttpKeyDirectory(settings: PspHttpSettings): PixKeyDirectory {
  const doFetch = settings.fetch ?? fetch;
  return {
    async ownerOf(key): Promise<KeyOwnerAnswer> {
      let last = 'no attempt';
      for (let attempt = 0; attempt <= settings.retries; attempt++) {
        try {
          const res = await doFetch(new URL(keyOwnerPath(key), settings.baseUrl), {
            headers: { authorization: `Bearer ${settings.token}`, accept: 'application/json' },
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          if (res.status === 404) return { result: 'not_found' };
          if (res.ok) return readKeyOwner(await res.json());
          last = `HTTP ${res.status}`;
          if (res.status < 500) break;
        } catch (e) {
          last = e instanceof Error ? e.name : 'network error';
        }
      }
      return { result: 'unavailable', why: last };
    },
  };
}
