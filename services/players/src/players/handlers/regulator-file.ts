// What the daily regulator file (services/compliance, docs/aml.md) asks of players, read only
// (internal messages): the bettors of a brand for a day and the account status changes of the day
// (store/regulator-file.ts).
import { regulatorFileMessages } from '@bo/contracts';
import { handle, internalScopeOf, type Handler, type SqlRunner } from '@bo/service-kit';
import { bettorsOfDay, statusChangesOfDay } from '../store/regulator-file.ts';

export function regulatorFileHandlers(sql: SqlRunner): Record<string, Handler> {
  return {
    ...handle(regulatorFileMessages.bettors, async (req) => {
      internalScopeOf(req);
      return { body: await bettorsOfDay(sql, req.body) };
    }),
    ...handle(regulatorFileMessages.statusChanges, async (req) => {
      internalScopeOf(req);
      return { body: await statusChangesOfDay(sql, req.body) };
    }),
  };
}
