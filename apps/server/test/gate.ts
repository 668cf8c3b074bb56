/** A gate a test holds shut while it looks at a run half-way: `passed()` waits while it is held. */
export function createGate() {
  let held: Promise<void> | null = null;
  let open = () => undefined as void;
  return {
    hold(): void {
      held = new Promise<void>((resolve) => (open = resolve));
    },
    release(): void {
      const was = held;
      held = null;
      if (was) open();
    },
    async passed(): Promise<void> {
      while (held) await held;
    },
  };
}
