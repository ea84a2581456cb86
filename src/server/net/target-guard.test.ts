import { describe, expect, it } from 'vitest';
import { checkWebhookTarget, classifyAddress, isAllowListed } from './target-guard';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
});

describe('checkWebhookTarget', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a host when any of its addresses is not public', async () => {
    await expect(
      checkWebhookTarget('https://lms.example.edu/hook', {
        allowed: [],
        resolve: resolveTo('93.184.216.34', '10.0.0.7'),
      }),
    ).rejects.toThrow('lms.example.edu resolves to 10.0.0.7, a private address');
  });

  it('accepts a public host and returns the addresses to connect to', async () => {
    const target = await checkWebhookTarget('https://lms.example.edu/hook', {
      allowed: [],
      resolve: resolveTo('93.184.216.34'),
    });
    expect(target.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses other schemes, credentials and unresolvable hosts', async () => {
    const options = { allowed: [], resolve: resolveTo('93.184.216.34') };
    await expect(checkWebhookTarget('ftp://x.example/', options)).rejects.toThrow('https://');
    await expect(checkWebhookTarget('https://u:p@x.example/', options)).rejects.toThrow('password');
    await expect(checkWebhookTarget('not a url', options)).rejects.toThrow('not a web address');
    await expect(
      checkWebhookTarget('https://nowhere.example/', {
        allowed: [],
        resolve: () => Promise.reject(new Error('ENOTFOUND')),
      }),
    ).rejects.toThrow('could not be resolved');
  });

  it('lets an allow-listed host through, by host and optionally port', async () => {
    const url = new URL('http://127.0.0.1:8080/x');
    expect(isAllowListed(url, ['127.0.0.1'])).toBe(true);
    expect(isAllowListed(url, ['127.0.0.1:8080'])).toBe(true);
    expect(isAllowListed(url, ['127.0.0.1:9090'])).toBe(false);
    expect(isAllowListed(new URL('http://[::1]:8080/'), ['[::1]:8080'])).toBe(true);
    await expect(
      checkWebhookTarget('http://127.0.0.1:8080/x', { allowed: ['127.0.0.1'] }),
    ).resolves.toBeDefined();
    await expect(checkWebhookTarget('http://127.0.0.1:8080/x', { allowed: [] })).rejects.toThrow(
      'a loopback address',
    );
  });
});
