// The SIGAP simulator: answers a submission at once with what SIGAP's two phases would (checks.ts,
// our assumption of them): a receipt, or the phase and the reasons of a rejection. Used by
// `npm start`, every sandbox brand whatever SIGAP_PROVIDER says, and the tests. Its receipts start
// with `SIM-` and the files it answered say `via: simulator`: never taken for SIGAP's. Stateless:
// the same content always gets the same answer (and the same receipt). The hash sent with the file
// is checked first (a file altered on the way).
import { createHash } from 'node:crypto';
import { checkSigapFile } from './checks.ts';
import type { SigapPort } from './port.ts';

export function sigapSimulator(o: { maxRecords: number }): SigapPort {
  return {
    via: 'simulator',
    async submit(file) {
      // The hash sent with the file must be its content's: a file altered on the way is a structure failure.
      const hash = createHash('sha256').update(file.content).digest('hex');
      if (hash !== file.checksum)
        return {
          outcome: 'rejected',
          phase: 'structure',
          reasons: [{ code: 'CHECKSUM_MISMATCH', field: null, record: null, message: `the content's SHA-256 is ${hash}, the file says ${file.checksum}` }],
        };
      const result = checkSigapFile(file.content, o.maxRecords);
      if (!result.ok) return { outcome: 'rejected', phase: result.phase, reasons: result.reasons };
      const receipt = `SIM-${createHash('sha256').update(`${file.fileName}\n${file.checksum}`).digest('hex').slice(0, 20).toUpperCase()}`;
      return { outcome: 'accepted', receipt };
    },
    // Every answer is given at once: a protocol the simulator never issued is none of its.
    async status() {
      return { outcome: 'unavailable', why: 'the simulator answers at once and keeps no protocol' };
    },
  };
}
