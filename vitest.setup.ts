// Runs before each server and package test file. Those files share worker processes (isolate: false,
// decision 0026), and the instrument catalogue is the one module state that grows while a server runs
// (runtime listing after an IPO or a coin offering): each file starts from the built-in catalogue, as a
// freshly started process would.
import { forgetInstrumentsAddedAtRunTime } from '@bourse/market';

forgetInstrumentsAddedAtRunTime();
