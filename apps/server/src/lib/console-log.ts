/** Operator-facing lines printed while the process starts and stops. */
export const consoleLog = {
  info: (msg: string) => console.log(`[signalboard] ${msg}`),
  warn: (msg: string) => console.warn(`[signalboard] ${msg}`),
};
