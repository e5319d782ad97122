// Whether the live preview waits for an answer, held outside React state: only the panel that shows it subscribes,
// so a request leaving or answering re-renders that panel alone, not the whole editor (R-preview-busy-local).

export type BusyFlag = {
  subscribe: (listener: () => void) => () => void;
  get: () => boolean;
  set: (busy: boolean) => void;
};

export function busyFlag(): BusyFlag {
  let busy = false;
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => busy,
    set(next) {
      if (next === busy) return;
      busy = next;
      for (const listener of listeners) listener();
    },
  };
}
