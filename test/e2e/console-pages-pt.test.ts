// Every console page in Portuguese as each role reads it, at 1280 and 390 px (issue #70): the checks and
// the data they read are in support/console-pages.ts, one file per language so each runs beside the other.
import { consolePagesTest } from './support/console-pages.ts';

consolePagesTest('pt');
