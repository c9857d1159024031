// A localStorage stand-in for the node tests of web/lib/reporting/progress.js and its
// users: withStorage(s) installs it as globalThis.localStorage for one test,
// and the afterEach it registers takes it away again.
import { afterEach } from 'node:test';

export class MemoryStorage {
  constructor(items = {}) {
    this.items = new Map(Object.entries(items));
  }
  getItem(k) {
    return this.items.has(k) ? this.items.get(k) : null;
  }
  setItem(k, v) {
    this.items.set(k, String(v));
  }
  removeItem(k) {
    this.items.delete(k);
  }
}

export const withStorage = (storage) =>
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
afterEach(() => delete globalThis.localStorage);
