import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runClientMiddleware, type ClientMiddleware } from './middleware.ts';

test('middleware runs outermost first and the handler reads the params the chain left', async () => {
  const order: string[] = [];
  const chain: ClientMiddleware[] = [
    async (request, next) => {
      order.push('outer in');
      const result = await next();
      order.push('outer out');
      return { ...result, outer: true };
    },
    (request, next) => {
      order.push('inner');
      request.params = { changed: true };
      return next();
    },
  ];
  const handler = (params: unknown) => {
    order.push('handler');
    return Promise.resolve({ params });
  };
  const result = await runClientMiddleware(
    { direction: 'outbound', method: 'ping', params: undefined },
    { chain, handler },
  );
  assert.deepEqual(result, { params: { changed: true }, outer: true });
  assert.deepEqual(order, ['outer in', 'inner', 'handler', 'outer out']);
});

test('a middleware that throws synchronously yields a rejected promise', async () => {
  const chain: ClientMiddleware[] = [
    () => {
      throw new Error('sync failure');
    },
  ];
  const handler = () => Promise.resolve({});
  const outcome = runClientMiddleware(
    { direction: 'inbound', method: 'roots/list', params: {} },
    { chain, handler },
  );
  await assert.rejects(outcome, /sync failure/);
});
