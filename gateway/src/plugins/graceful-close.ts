import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Closing that finishes every request already being handled, then drops the connections left
 * open. Node's own close waits for keep-alive and half-sent connections until their timeouts
 * (a minute or more); once nothing is in flight there is nothing left to wait for.
 */
export function gracefulCloser(app: FastifyInstance): (timeoutMs: number) => Promise<void> {
  const inFlight = new Set<FastifyRequest>();
  let settled: (() => void) | undefined;
  const finished = async (request: FastifyRequest) => {
    // A request can end by response or by abort; count it once either way.
    if (inFlight.delete(request) && inFlight.size === 0) settled?.();
  };
  app.addHook('onRequest', async (request) => {
    inFlight.add(request);
  });
  app.addHook('onResponse', finished);
  app.addHook('onRequestAbort', finished);

  return async (timeoutMs) => {
    const closing = app.close();
    const drained = new Promise<void>((resolve) => {
      settled = resolve;
      if (inFlight.size === 0) resolve();
    });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([drained, timeout]);
    app.server.closeAllConnections();
    await closing;
  };
}
