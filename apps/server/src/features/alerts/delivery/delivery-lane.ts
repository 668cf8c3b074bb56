/**
 * A lane of the delivery worker (delivery.ts): its passes run one at a time, a kick during one asks for
 * another after it, and a full batch (or more) means more may be due, so it goes on at once. SMS and e-mail are
 * one lane, webhooks another (issue 27), so a slow endpoint never holds an SMS up.
 */
export interface DeliveryLaneOptions {
  name: string;
  /** One pass: answers how many deliveries it handled (`batch` or more: more may be due). */
  once: () => Promise<number>;
  batch: number;
  /** Whether the worker is still started (a stop ends the loop after the pass under way). */
  going: () => boolean;
  log: { warn(message: string): void };
}

export function deliveryLane(options: DeliveryLaneOptions) {
  const { name, once, batch, going, log } = options;
  let running: Promise<void> | undefined;
  let again = false;
  return {
    pass() {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          try {
            while ((await once()) >= batch && going()) {
              /* next batch */
            }
          } catch (error) {
            log.warn(`alert delivery pass (${name}) failed: ${(error as Error).message}`);
          }
        } while (again && going());
      })().finally(() => {
        running = undefined;
      });
    },
    /** Resolves once the pass under way (if any) is over. */
    idle: () => running ?? Promise.resolve(),
  };
}
