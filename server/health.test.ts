import { describe, expect, it } from 'vitest';
import { mayReadDetail } from './health.ts';

describe("/readyz's detail", () => {
  it('is shown to this machine, however it writes its address', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.53']) expect(mayReadDetail(address, undefined, ''), address).toBe(true);
  });

  it('is not shown to anyone else, nor for a wrong or empty token', () => {
    for (const address of ['203.0.113.9', '10.0.0.1', '::ffff:198.51.100.1', null])
      expect(mayReadDetail(address, undefined, 'secret'), String(address)).toBe(false);
    expect(mayReadDetail('203.0.113.9', 'Bearer wrong', 'secret')).toBe(false);
    expect(mayReadDetail('203.0.113.9', 'Bearer ', '')).toBe(false);
    expect(mayReadDetail('203.0.113.9', 'Basic secret', 'secret')).toBe(false);
  });

  it('is shown to a client with the token', () => {
    expect(mayReadDetail('203.0.113.9', 'Bearer secret', 'secret')).toBe(true);
  });
});
