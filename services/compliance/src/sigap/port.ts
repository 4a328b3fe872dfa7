// The SIGAP submission port (issue #46 item 1; design.md, "Rules that gate money": external
// registries sit behind a port): one interface to the SPA's file reception, a real adapter whose
// wire format lives in one module (wire.ts, http-adapter.ts) and a simulator (simulator.ts) that
// applies the structure and quality checks SIGAP is said to apply (checks.ts), used by `npm start`,
// sandbox brands and the tests. A file counts as sent only once SIGAP accepted it (the manual, as
// quoted publicly): a submission answers a receipt, a rejection with its phase and reasons, a
// protocol to ask about later (the analyses still running), or `unavailable` (not delivered: sent
// again later). An answer is never an exception.
import type { SigapFileType, SigapPhase, SigapReason } from '@bo/contracts';

/** One file as it is sent: its content exactly as kept, and what names it. */
export interface SigapSubmission {
  fileType: SigapFileType;
  fileName: string;
  brandId: string;
  operatorId: string | null;
  referenceDate: string;
  part: number;
  parts: number;
  content: string;
  /** SHA-256 of `content`, hex. */
  checksum: string;
}

export type SigapAnswer =
  | { outcome: 'accepted'; receipt: string; protocol?: string }
  | { outcome: 'rejected'; phase: SigapPhase; reasons: SigapReason[]; protocol?: string }
  | { outcome: 'pending'; protocol: string }
  | { outcome: 'unavailable'; why: string };

export interface SigapPort {
  /** `simulator` or `sigap`: kept on each file, so a simulator's receipt is never taken for SIGAP's. */
  readonly via: 'simulator' | 'sigap';
  submit(file: SigapSubmission): Promise<SigapAnswer>;
  /** The answer to a submission that was `pending` (its protocol). */
  status(protocol: string): Promise<SigapAnswer>;
}
