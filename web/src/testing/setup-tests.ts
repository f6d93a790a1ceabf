import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// A browser resolves a relative fetch URL ('/api/health') against the page. jsdom gives the page
// a URL, but the fetch, Request and Response the tests use are Node's (undici), which know no
// page. This tells undici the page's origin, exactly as undici's own setGlobalOrigin() does.
Object.defineProperty(globalThis, Symbol.for('undici.globalOrigin.1'), {
  value: new URL(window.location.origin),
  writable: true,
  configurable: true,
});

afterEach(() => {
  cleanup();
});
